"""What :func:`resolver.act.execute` takes and gives: the actions (pydantic models, one per
kind, told apart by ``action``) and the :class:`ExecuteResult`.

>>> parse_action({"action": "click", "target": "index=3"})
ClickAction(action='click', target='index=3', button='left', double=False)
>>> parse_action({"action": "type", "target": "css=#name", "text": "Ada", "clear": True}).clear
True
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from ..errors import InvalidTargetError

__all__ = [
    "MAX_ACTIONS",
    "MAX_FILES",
    "MAX_WAIT_MS",
    "Action",
    "ActionError",
    "ClickAction",
    "DialogSeen",
    "DragAction",
    "ErrorCodeName",
    "ExecuteResult",
    "HistoryAction",
    "HoverAction",
    "ObservationSummary",
    "PageOpened",
    "PressAction",
    "RefreshCatalogAction",
    "ScrollAction",
    "ScrollToTextAction",
    "SelectAction",
    "TypeAction",
    "UploadAction",
    "WaitAction",
    "parse_action",
]

MAX_ACTIONS: Final[int] = 50
"""Actions in one :func:`~resolver.act.execute` call, at most."""
MAX_WAIT_MS: Final[int] = 30_000
"""Milliseconds one ``wait`` action may last, at most."""
_MAX_TEXT: Final[int] = 10_000
MAX_FILES: Final[int] = 20
"""Files one ``upload`` action puts into a field, at most."""

ErrorCodeName = Literal[
    "CATALOG_OUTDATED",
    "ELEMENT_NOT_FOUND",
    "AMBIGUOUS",
    "ELEMENT_NOT_INTERACTABLE",
    "VALIDATION_ERROR",
    "EXECUTION_ERROR",
    "DIALOG_DISMISSED",
]

Target = Annotated[str, Field(min_length=1, max_length=4000)]


class _Action(BaseModel):
    """What every action takes: how to answer a dialog the page opens while it runs
    (``confirm``, ``prompt``, ``beforeunload``; an ``alert`` has one button and is always
    accepted). Without ``dialog`` such a dialog is dismissed and the action fails with
    ``DIALOG_DISMISSED``: a confirmation is never given that was not asked for.
    ``dialog_text`` is what a prompt accepted with ``"accept"`` returns (default: the
    prompt's own default value)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dialog: Literal["accept", "dismiss"] | None = Field(default=None, repr=False)
    dialog_text: str | None = Field(default=None, max_length=_MAX_TEXT, repr=False)

    @model_validator(mode="after")
    def _text_when_accepted(self) -> _Action:
        if self.dialog_text is not None and self.dialog != "accept":
            raise ValueError('dialog_text is the answer to a prompt: it needs dialog="accept"')
        return self


class ClickAction(_Action):
    """Click the target at its centre, once it is checked to be what was chosen: with the
    ``right`` button (a context menu), or twice (``double``: a double click)."""

    action: Literal["click"]
    target: Target
    button: Literal["left", "right"] = "left"
    double: bool = False

    @model_validator(mode="after")
    def _one_kind(self) -> ClickAction:
        if self.double and self.button == "right":
            raise ValueError("a double click is with the left button")
        return self

    @property
    def kind(self) -> Literal["click", "double_click", "right_click"]:
        """The recorded action type of this click (``ActionWithElement.type``)."""
        if self.double:
            return "double_click"
        return "right_click" if self.button == "right" else "click"


class HoverAction(_Action):
    """Move the pointer over the target (a menu that opens on hover), once it is checked to
    be what was chosen; nothing is clicked."""

    action: Literal["hover"]
    target: Target


class TypeAction(_Action):
    """Click into the target and type ``text`` (after emptying it when ``clear``)."""

    action: Literal["type"]
    target: Target
    text: str = Field(max_length=_MAX_TEXT)
    clear: bool = False


class SelectAction(_Action):
    """Choose the option of a ``<select>`` whose value (or visible label) is given."""

    action: Literal["select"]
    target: Target
    value: str | None = Field(default=None, max_length=_MAX_TEXT)
    label: str | None = Field(default=None, max_length=_MAX_TEXT)

    @model_validator(mode="after")
    def _one_choice(self) -> SelectAction:
        if (self.value is None) == (self.label is None):
            raise ValueError("a select action takes exactly one of value and label")
        return self


class PressAction(_Action):
    """Press ``key`` (``Enter``, ``Control+A``), in the target when one is given (it is
    focused first), else wherever the focus is."""

    action: Literal["press"]
    key: str = Field(min_length=1, max_length=64)
    target: Target | None = None


class UploadAction(_Action):
    """Put ``files`` (paths on the browser's machine) into the target: an ``<input
    type=file>``, or a control whose click opens a file chooser; ``[]`` empties the field
    (:mod:`resolver.act.uploads`)."""

    action: Literal["upload"]
    target: Target
    files: tuple[Annotated[str, Field(min_length=1, max_length=4096)], ...] = Field(
        max_length=MAX_FILES
    )


class DragAction(_Action):
    """Press on the target, move to the element ``to`` names and let go there (a card onto
    a column, a file onto a drop zone, a slider's knob along its track). The target is
    checked as a click's is and the pointer rests on it first; ``to`` is found on the page as
    it is then, and must be in the viewport."""

    action: Literal["drag"]
    target: Target
    to: Target


class ScrollAction(_Action):
    """Turn the mouse wheel ``pages`` viewport heights (or widths) in ``direction``: over
    the target when one is given (a list that scrolls inside the page: the pointer is moved
    onto it first, once it is checked to be what was chosen), else over the middle of the
    viewport (the page itself). A page's own scroll handlers see the wheel as a person's."""

    action: Literal["scroll"]
    direction: Literal["down", "up", "left", "right"] = "down"
    pages: float = Field(default=1.0, gt=0, le=10)
    target: Target | None = None


class HistoryAction(_Action):
    """Go ``back`` or ``forward`` in the tab's history, or ``reload`` the page, and wait for
    it to load. The catalog is kept: indexes chosen before are found again on the page
    shown then, or refused."""

    action: Literal["back", "forward", "reload"]


class RefreshCatalogAction(_Action):
    """Observe the page again and make its catalog the current one."""

    action: Literal["refresh_catalog"]


class ScrollToTextAction(_Action):
    """Scroll the first element showing ``text`` into view."""

    action: Literal["scroll_to_text"]
    text: str = Field(min_length=1, max_length=1000)


class WaitAction(_Action):
    """Wait for the network to go quiet, for a CSS selector to appear, for a text to be
    shown (``text``: "Saved") or to be gone (``no_text``: "Loading..."), or ``ms``
    milliseconds (also the bound of the others; default 5,000)."""

    action: Literal["wait"]
    until: Literal["network_idle", "selector", "text", "no_text", "timeout"] = "timeout"
    ms: int = Field(default=5000, ge=0, le=MAX_WAIT_MS)
    selector: str | None = Field(default=None, min_length=1, max_length=4000)
    text: str | None = Field(default=None, min_length=1, max_length=1000)

    @model_validator(mode="after")
    def _selector_when_needed(self) -> WaitAction:
        if (self.until == "selector") != (self.selector is not None):
            raise ValueError("wait until='selector' takes a selector, and only it does")
        if (self.until in ("text", "no_text")) != (self.text is not None):
            raise ValueError("wait until='text' or 'no_text' takes a text, and only they do")
        return self


Action = Annotated[
    ClickAction | HoverAction | TypeAction | SelectAction | PressAction | UploadAction
    | DragAction | ScrollAction | HistoryAction | RefreshCatalogAction | ScrollToTextAction
    | WaitAction,
    Field(discriminator="action"),
]  # fmt: skip
_ADAPTER: Final[TypeAdapter[Action]] = TypeAdapter(Action)


def parse_action(data: object) -> Action:
    """One action from its dict form.

    Raises
    ------
    InvalidTargetError
        ``VALIDATION_ERROR``: not a dict, an unknown ``action``, a missing or extra field.
    """
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'action'}: {err['msg']}"
            for err in exc.errors()[:5]
        )
        raise InvalidTargetError(f"not an action: {problems}") from None


class ActionError(BaseModel):
    """Why an action failed: a stable code, a sentence, and details (the action's position,
    the deciding rule, the nearest candidates)."""

    model_config = ConfigDict(frozen=True)

    code: ErrorCodeName
    message: str
    details: dict[str, Any] = Field(default_factory=dict)


class DialogSeen(BaseModel):
    """A JavaScript dialog the page opened while the actions ran, and how it was answered:
    ``accepted`` or ``dismissed`` as the action asked (``by_default`` when it asked
    nothing: an alert accepted, anything else dismissed), or ``elsewhere`` when another
    listener of the page answered it first."""

    model_config = ConfigDict(frozen=True)

    action_index: int = Field(ge=0, description="the action that was running")
    type: str = Field(description="alert, confirm, prompt or beforeunload")
    message: str
    default_value: str = ""
    answer: Literal["accepted", "dismissed", "elsewhere"]
    by_default: bool = False
    text: str | None = Field(default=None, description="what an accepted prompt returned")


class PageOpened(BaseModel):
    """A tab or window the page opened while the actions ran (a link with a ``target``,
    ``window.open``): the action that was running and the address it was opened at."""

    model_config = ConfigDict(frozen=True)

    action_index: int = Field(ge=0)
    url: str


class ObservationSummary(BaseModel):
    """The page after the actions."""

    model_config = ConfigDict(frozen=True)

    url: str
    title: str
    short_summary: str
    catalog_version: str | None
    nav_detected: bool = Field(description="the page navigated while the actions ran")


class ExecuteResult(BaseModel):
    """The outcome of :func:`~resolver.act.execute`.

    Attributes
    ----------
    success:
        Every action ran.
    error:
        The first failure (the actions after it did not run).
    observation:
        URL, title, a one-line summary and the catalog version after the actions.
    is_done:
        Whether nothing is left to run: every action ran (the same as ``success`` except
        for an empty list, which is done and successful).
    complete:
        How many actions ran to the end.
    catalog:
        The catalog after the actions, as the text a model reads (its version is
        ``observation.catalog_version``); ``None`` when the page could not be observed.
    dialogs:
        Every JavaScript dialog the page opened meanwhile, in order, with its answer.
    opened:
        Every tab or window the page opened meanwhile. The observation and catalog stay
        those of the page acted on; a server's ``tabs`` tool makes a new tab current.
    """

    model_config = ConfigDict(frozen=True)

    success: bool
    error: ActionError | None = None
    observation: ObservationSummary
    is_done: bool
    complete: int = Field(ge=0)
    catalog: str | None = None
    dialogs: tuple[DialogSeen, ...] = ()
    opened: tuple[PageOpened, ...] = ()
