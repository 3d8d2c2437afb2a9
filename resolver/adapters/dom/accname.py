"""Accessible names per Accessible Name and Description Computation 1.2 and HTML-AAM.

:class:`NameComputer` implements "compute the text alternative of the current node" (accname
§4.3.2) over the flat :class:`~.parse.Document`. Step labels in comments (2A ... 2I) are the
spec's. Where the code follows Chromium rather than the letter of the spec it says
"Deviation (follows Chromium)"; where it cannot follow either it says "Limitation".

Limitations: CSS generated content (``::before``/``::after``) is not known, so step 2F.ii
contributes nothing; shadow DOM and ``aria-owns`` re-parenting are not applied.

Cost: names are computed only for rows that need one, each result and each plain
descendant contribution is memoised, and text gathering stops once :data:`MAX_NAME_CHARS`
characters are collected, so a page's names cost about one pass over the text.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final

from .parse import Document, indices_of

__all__ = ["MAX_NAME_CHARS", "NAME_FROM_CONTENT", "NameComputer", "collapse_ascii"]

MAX_NAME_CHARS: Final[int] = 4000

NAME_FROM_CONTENT: Final[frozenset[str]] = frozenset(
    {
        "button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link",
        "menuitem", "menuitemcheckbox", "menuitemradio", "option", "radio",
        "rowheader", "switch", "tab", "tooltip", "treeitem",
        # Deviation (follows Chromium): "row" is not named from its cells, "term" is.
        "term",
    }
)  # fmt: skip
"""Roles whose name comes from their content (ARIA 1.2 "Name From: contents")."""


_ASCII_SPACES: Final[str] = " \t\n\r\f"
_ASCII_WS: Final[re.Pattern[str]] = re.compile(r"[ \t\n\r\f]+")
_VISIBLE: Final[re.Pattern[str]] = re.compile(r"[^ \t\n\r\f]")
"""Anything but HTML's whitespace (a search, not ``strip``: no copy of a long text)."""


def _collapse(text: str) -> str:
    """ASCII whitespace runs to one space, ends stripped.

    Only HTML's ASCII whitespace collapses (CSS Text 3 §4.1.1, as browsers render it): a
    no-break space or another Unicode space stays in the name, as Chromium and WPT keep it.
    ``str.split`` is much cheaper than a regex, so it is used for ASCII text (where it also
    collapses the rare vertical tab and U+001C to U+001F) and for text without any of the
    spaces it splits at that HTML does not (:data:`_OTHER_SPACE`).
    """
    if text.isascii() or not _OTHER_SPACE.search(text):
        return " ".join(text.split())
    return _ASCII_WS.sub(" ", text).strip(_ASCII_SPACES)


_OTHER_SPACE: Final[re.Pattern[str]] = re.compile(
    "[\x0b\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)
"""What ``str.split`` splits at besides HTML's ASCII whitespace: where the text has none of
these (most text), ``str.split`` collapses exactly HTML's whitespace."""


collapse_ascii = _collapse
"""The whitespace collapsing names get (public for the benchmarks that compare names)."""

_LABELABLE: Final[frozenset[str]] = frozenset(
    {"button", "input", "meter", "output", "progress", "select", "textarea"}
)
_RANGE_ROLES: Final[frozenset[str]] = frozenset(
    {"slider", "spinbutton", "progressbar", "meter", "scrollbar"}
)
_TEXT_INPUT_TYPES: Final[frozenset[str]] = frozenset(
    {"", "text", "email", "tel", "url", "search", "password", "number"}
)
_BUTTON_DEFAULTS: Final[Mapping[str, str]] = {"submit": "Submit", "reset": "Reset"}
_MAX_DEPTH: Final[int] = 600  # recursion guard; the tree is at most 512 deep
_STACK: Final[int] = 3 * _MAX_DEPTH + 1000
"""Python frames a name computation may need: up to three per level of the tree it walks
(:meth:`NameComputer._element_text`, then :meth:`NameComputer._plain_text`, or
:meth:`NameComputer._node` and :meth:`NameComputer._children`), on top of the caller's. A
link around content 500 elements deep is a page Chromium names; the interpreter's default
limit (1,000 frames) would refuse it."""


_LIMIT_LOCK: Final = threading.Lock()
_raised_for: int = 0
"""Walks running on the recursion limit this module raised (guarded by :data:`_LIMIT_LOCK`)."""
_restore_to: int = 0
"""The limit to restore when the last of them ends."""


def _deep_walk(walk: Callable[[], str]) -> str:
    """``walk()`` with room for :data:`_STACK` frames: the interpreter's recursion limit is
    raised for the call when it is lower, and restored after it.

    The limit is the process's, shared by its threads, so the walks that need it raised are
    counted and only the last to end restores it: a walk in another thread never finds it
    lowered under it. (The count goes up before the limit is raised and the limit comes down
    before the count does, so a walk that reads a raised limit with no walk counted is not
    on a limit about to be restored.)"""
    global _raised_for, _restore_to
    if sys.getrecursionlimit() >= _STACK and not _raised_for:
        return walk()  # the process's own limit is enough
    with _LIMIT_LOCK:
        _raised_for += 1
        if _raised_for == 1:
            _restore_to = sys.getrecursionlimit()
            if _restore_to < _STACK:
                sys.setrecursionlimit(_STACK)
    try:
        return walk()
    finally:
        with _LIMIT_LOCK:
            if _raised_for == 1 and _restore_to < _STACK:
                sys.setrecursionlimit(_restore_to)
            _raised_for -= 1


class _Walk:
    """State of one name computation: the element being named, the element excluded from
    its own label (``root``, -1 inside labelledby traversals), the nodes already visited and
    the characters still allowed."""

    __slots__ = ("budget", "named", "root", "visited")

    def __init__(self, root: int) -> None:
        self.root = root
        self.named = root
        self.visited: set[int] = set()
        self.budget = MAX_NAME_CHARS


class NameComputer:
    """Accessible names for the elements of one document.

    Parameters
    ----------
    doc:
        The parsed page.
    roles:
        Canonical role per element (see :mod:`.roles`).
    hidden:
        Per element: excluded from the accessibility tree (not rendered, ``visibility:
        hidden``, ``aria-hidden="true"`` or ``inert`` on it or an ancestor).
    block:
        Per element: laid out as a block, so its text is separated by spaces (2F.iii).
    end:
        Per element: one past the index of its last descendant (subtrees are contiguous).
    content_named:
        Elements named from their content although their role is not in
        :data:`NAME_FROM_CONTENT` (layout-table cells, see :func:`.roles.layout_cells`).
    """

    def __init__(
        self,
        doc: Document,
        roles: Sequence[str],
        hidden: Sequence[bool],
        block: Sequence[bool],
        end: Sequence[int],
        *,
        rendered: Sequence[bool] | None = None,
        aria_hidden: Sequence[bool] | None = None,
        before: Mapping[int, str] | None = None,
        after: Mapping[int, str] | None = None,
        transform: Sequence[int] | None = None,
        content_named: Collection[int] = frozenset(),
    ) -> None:
        self.doc = doc
        self.content_named = content_named
        self.rendered = rendered if rendered is not None else [True] * len(doc)
        self.aria_hidden = aria_hidden if aria_hidden is not None else [False] * len(doc)
        self.before = before or {}
        self.after = after or {}
        self.transform = _inherit(doc, transform) if transform else None
        self.roles = roles
        self.hidden = hidden
        self.block = block
        self.end = end
        self._names: dict[int, str] = {}
        self._content: dict[int, str] = {}
        self._labels: dict[int, list[int]] | None = None
        self._plain: list[int] = [-1] * len(doc)
        """Per element: 1 when it is plain (see :meth:`_is_plain`), 0 when not, -1 unknown."""

    # -- public ------------------------------------------------------------------------------

    def name(self, i: int) -> str:
        """The accessible name of element ``i``, whitespace-collapsed."""
        cached = self._names.get(i)
        if cached is None and not self.rendered[i]:
            cached = self._names[i] = ""  # 2A: an unrendered element has no name
        if cached is None:
            cached = self._plain_name(i)
        if cached is None:
            walk = _Walk(i)
            # An element that is itself hidden is named from its hidden content (as a hidden
            # node referenced by aria-labelledby is, 2A); otherwise hidden content is skipped.
            hidden = self.hidden[i]
            cached = _collapse(_deep_walk(lambda: self._node(
                i, walk, 0, recursive=False, labelledby=False, hidden_ok=hidden)))  # fmt: skip
            self._names[i] = cached
        return cached

    def _plain_name(self, i: int) -> str | None:
        """The name of an element without author or host-language labels (no 2B, 2D, 2E)
        whose content, if it is named from content, is text only; None for any other
        element (the full computation handles it)."""
        doc = self.doc
        attrs = doc.attrs[i]
        if attrs and ("aria-labelledby" in attrs or "aria-label" in attrs):
            return None
        tag = doc.tags[i]
        if tag in _NATIVE_TAGS or (doc.namespace[i] == 1 and tag in _SVG_NATIVE_TAGS):
            return None
        role = self.roles[i]
        if role in NAME_FROM_CONTENT or i in self.content_named:  # 2F, text children only
            text = self._text_only(i)
            if text is None or len(text) >= MAX_NAME_CHARS:
                return None  # (too long: the budget cuts it, as the full computation does)
            if text.strip(_ASCII_SPACES):
                name = _collapse(text)
                self._names[i] = name
                return name
        # 2I: the tooltip attribute (not for presentational elements, nor for the roles whose
        # name Chromium leaves empty; see _UNTITLED).
        title = attrs.get("title") if attrs and role not in _UNTITLED else None
        if title is None and attrs and role == "generic" and doc.tags[i] == "abbr":
            title = attrs.get("title")
        name = _collapse(title) if title and title.strip() else ""
        self._names[i] = name
        return name

    def text_of(self, i: int, skip: Sequence[bool] | None = None) -> str:
        """Visible text of ``i``'s subtree (name-from-content rules), whitespace-collapsed.

        ``skip`` marks descendants whose text belongs elsewhere (they contribute nothing).
        """
        if (
            i not in self.before
            and i not in self.after
            and (self.transform is None or self.transform[i] <= 1)
        ):
            # Text children only (besides skipped elements): their text is the result.
            texts: list[str] = []
            for child in self.doc.content[i]:
                if isinstance(child, str):
                    texts.append(child)
                elif skip is None or not skip[child]:
                    break
            else:
                text = "".join(texts)
                if len(text) < MAX_NAME_CHARS:
                    return _collapse(text)
        walk = _Walk(i)
        parts: list[str] = []

        def children() -> str:
            self._children(i, walk, 0, False, self.hidden[i], parts, skip)
            return "".join(parts)

        return _collapse(_deep_walk(children))

    def labels(self, i: int) -> list[int]:
        """``label`` elements labelling ``i`` (HTML: ``for`` = id, or the wrapping label)."""
        if self._labels is None:
            self._labels = self._index_labels()
        return self._labels.get(i, [])

    # -- the algorithm -----------------------------------------------------------------------

    def _node(
        self, i: int, walk: _Walk, depth: int, *, recursive: bool, labelledby: bool,
        hidden_ok: bool,
    ) -> str:  # fmt: skip
        """The text alternative of node ``i`` (accname §4.3.2, steps 2A to 2I)."""
        attrs = self.doc.attrs[i]
        role = self.roles[i]
        # 2A: hidden nodes contribute nothing, unless the traversal started at a hidden node
        # that aria-labelledby referenced directly (then its hidden subtree counts too).
        if recursive and self.hidden[i] and not hidden_ok:
            return self._hidden_content(i, walk, depth, labelledby)
        if depth > _MAX_DEPTH or walk.budget <= 0:
            return ""
        if recursive and i == walk.root:
            return ""  # the control being named is not part of its own label
        # 2B: aria-labelledby, unless already inside a labelledby traversal.
        refs = attrs.get("aria-labelledby") if attrs and not labelledby else None
        found = self._labelledby(refs, walk, depth) if refs else None
        if found is not None:
            return found
        if recursive:
            # Each node contributes once per computation (accname 1.2 §4.3.2: a node
            # already visited is skipped, so labelledby cycles and repeats end).
            if i in walk.visited:
                return ""
            walk.visited.add(i)
        # 2C: a control embedded in a label (or in content) contributes its value; a menu
        # inside a label contributes nothing. The element being named is not embedded.
        if recursive and role in _EMBEDDED and i != walk.named:
            return self._embedded_value(i, role)
        # 2D: aria-label.
        label = attrs.get("aria-label") if attrs else None
        if label and label.strip():
            return label
        # 2E: the host language label (only these tags have one; skipped for presentational).
        tag = self.doc.tags[i]
        labelled = tag in _NATIVE_TAGS or (tag in _SVG_NATIVE_TAGS and self.doc.namespace[i] == 1)
        native = self._native(i, walk, depth) if labelled and role != "none" else ""
        if native:
            return native
        # 2F: name from content, for roles that allow it and for every descendant.
        if recursive or role in NAME_FROM_CONTENT or i in self.content_named:
            if recursive and not hidden_ok and not labelledby:
                cached = self._content.get(i)
                if cached is not None:
                    walk.budget -= len(cached)
                    return cached
            parts: list[str] = []
            before = walk.budget
            self._children(i, walk, depth, labelledby, hidden_ok, parts, None)
            text = "".join(parts)
            if (recursive and not hidden_ok and not labelledby and walk.budget > 0
                    and not (i < walk.root < self.end[i])):  # fmt: skip
                self._content[i] = text
            if _VISIBLE.search(text) or (
                recursive and not (attrs and attrs.get("title", "").strip())
            ):
                return text  # whitespace between words matters inside a parent's name
            walk.budget = before
        return self._tooltip(i, role, recursive)

    def _tooltip(self, i: int, role: str, recursive: bool) -> str:
        """2I: the tooltip attribute. Deviation (follows Chromium): not for presentational
        elements, not for an img whose alt is empty (alt="" is its whole name), and not as
        the own name of the roles in :data:`_UNTITLED` (inside another name it counts)."""
        attrs = self.doc.attrs[i]
        skip = role == "none" or (
            not recursive and role in _UNTITLED and self.doc.tags[i] != "abbr"
        )
        title = attrs.get("title") if attrs and not skip else None
        if not title or not title.strip():
            return ""
        return "" if attrs.get("alt") == "" and self.doc.tags[i] == "img" else title

    def _children(
        self, i: int, walk: _Walk, depth: int, labelledby: bool, hidden_ok: bool,
        parts: list[str], skip: Sequence[bool] | None,
    ) -> None:  # fmt: skip
        """2F.iii: each child's text alternative, with spaces around block-level ones."""
        pseudo = self.before.get(i)
        if pseudo:  # 2F.ii: CSS generated content before the children
            parts.append(pseudo)
        for child in self.doc.content[i]:
            if walk.budget <= 0:
                return
            if isinstance(child, int):
                if skip is not None and skip[child]:
                    continue
                result = self._element_text(child, walk, depth + 1, labelledby, hidden_ok)
            else:
                result = child  # 2G: a text node contributes its text
                if self.transform is not None and self.transform[i] > 1 and result:
                    # Follows Chromium: names carry the rendered text-transform.
                    result = _transformed(result, self.transform[i])
                walk.budget -= len(result)
            parts.append(result)
        attrs = self.doc.attrs[i]
        if attrs and "aria-owns" in attrs:
            # 2F.iii: "each child node of the current node", aria-owns children included:
            # owned elements follow the DOM children (ARIA 1.2 §6.6 aria-owns).
            for owned in self._owned(i):
                if walk.budget <= 0:
                    return
                result = self._node(owned, walk, depth + 1, recursive=True,
                                    labelledby=labelledby, hidden_ok=hidden_ok)  # fmt: skip
                parts.append(f" {result} " if self.block[owned] else result)
        pseudo = self.after.get(i)
        if pseudo:  # 2F.ii: and after them
            parts.append(pseudo)

    def _is_plain(self, i: int) -> int:
        """1 when element ``i`` is plain: shown, not a control or a host-language labelled
        element, without the attributes steps 2B, 2D, 2I and aria-owns read, and without
        CSS generated or transformed text; 0 otherwise.

        What :meth:`_node` does for such a descendant does not depend on its attributes,
        tag or role (it is named from its content), so :meth:`_plain_text` walks it without
        asking.
        """
        doc = self.doc
        attrs = doc.attrs[i]
        if attrs and not _LABELLING.isdisjoint(attrs):
            return 0
        tag = doc.tags[i]
        if tag in _NATIVE_TAGS or (doc.namespace[i] == 1 and tag in _SVG_NATIVE_TAGS):
            return 0
        if self.hidden[i] or self.roles[i] in _EMBEDDED or i in self.before or i in self.after:
            return 0
        return 0 if self.transform is not None and self.transform[i] > 1 else 1

    def _element_text(
        self, child: int, walk: _Walk, depth: int, labelledby: bool, hidden_ok: bool
    ) -> str:
        """2F.iii for one element child at ``depth``: its text alternative (plain ones by
        :meth:`_plain_text`, leaves by :meth:`_leaf_text`, the rest by :meth:`_node`), with
        spaces around a block-level or replaced element's text."""
        flag = self._plain[child]
        if flag < 0:
            flag = self._plain[child] = self._is_plain(child)
        if flag:
            result = self._plain_text(child, walk, depth, labelledby, hidden_ok)
        elif (leaf := self._leaf_text(child, walk)) is not None:
            result = leaf
        else:
            result = self._node(child, walk, depth, recursive=True,
                                labelledby=labelledby, hidden_ok=hidden_ok)  # fmt: skip
        if self.block[child] or (result and self.doc.tags[child] in _REPLACED):
            result = f" {result} "
        return result

    def _plain_text(
        self, i: int, walk: _Walk, depth: int, labelledby: bool, hidden_ok: bool
    ) -> str:
        """The text alternative of a plain descendant ``i`` (see :meth:`_is_plain`): what
        :meth:`_leaf_text`, or else :meth:`_node` with ``recursive=True``, returns for it,
        with :meth:`_children` done in the same loop."""
        content = self.doc.content[i]
        visited = walk.visited
        if i != walk.root and i != walk.named and i not in visited:
            for child in content:  # a leaf: text children only
                if not isinstance(child, str):
                    break
            else:
                text = "".join(content)  # type: ignore[arg-type]
                if len(text) < walk.budget:
                    visited.add(i)
                    walk.budget -= len(text)
                    return text
        if depth > _MAX_DEPTH or walk.budget <= 0 or i == walk.root or i in visited:
            return ""
        visited.add(i)
        memo = not hidden_ok and not labelledby
        if memo:
            cached = self._content.get(i)
            if cached is not None:
                walk.budget -= len(cached)
                return cached
        parts: list[str] = []
        for child in content:  # 2F.iii, as in _children
            if walk.budget <= 0:
                break
            if isinstance(child, int):
                result = self._element_text(child, walk, depth + 1, labelledby, hidden_ok)
            else:
                result = child  # 2G
                walk.budget -= len(result)
            parts.append(result)
        text = "".join(parts)
        if memo and walk.budget > 0 and not (i < walk.root < self.end[i]):
            self._content[i] = text
        return text

    def _owned(self, i: int) -> list[int]:
        """Elements ``i`` owns by ``aria-owns`` that are not already its descendants."""
        by_id, end = self.doc.by_id, self.end
        refs = self.doc.attrs[i].get("aria-owns", "").split()
        return [j for r in refs if (j := by_id.get(r, -1)) >= 0 and not i < j < end[i]]

    def _leaf_text(self, i: int, walk: _Walk) -> str | None:
        """What :meth:`_node` returns for a descendant ``i`` that is shown, has only text
        children, and carries nothing any of steps 2A-2E or 2I reads; None otherwise.

        Most inline descendants (``<b>``, ``<span>``) are such leaves; this spares them the
        general walk.
        """
        doc = self.doc
        attrs = doc.attrs[i]
        if attrs and not _LABELLING.isdisjoint(attrs):
            return None
        if self.hidden[i] or i == walk.root or i == walk.named or i in walk.visited:
            return None
        tag = doc.tags[i]
        if tag in _NATIVE_TAGS or (doc.namespace[i] == 1 and tag in _SVG_NATIVE_TAGS):
            return None
        if self.roles[i] in _EMBEDDED:
            return None
        text = self._text_only(i)
        if text is None or len(text) >= walk.budget:
            return None  # (too long: the budget cuts it, as the general walk does)
        walk.visited.add(i)
        walk.budget -= len(text)
        return text

    def _text_only(self, i: int) -> str | None:
        """``i``'s text when its children are all text and CSS adds or transforms none of it."""
        if i in self.before or i in self.after:
            return None
        if self.transform is not None and self.transform[i] > 1:
            return None
        content = self.doc.content[i]
        for child in content:
            if not isinstance(child, str):
                return None
        return "".join(content)  # type: ignore[arg-type]

    def _hidden_content(self, i: int, walk: _Walk, depth: int, labelledby: bool) -> str:
        """2A: a hidden node adds nothing; under ``visibility: hidden`` its element children do."""
        if not self.rendered[i] or self.aria_hidden[i]:
            return ""
        # visibility: hidden can be undone below (visibility: visible), so only this
        # element's own text is dropped.
        parts: list[str] = []
        for child in self.doc.content[i]:
            if isinstance(child, int):
                text = self._node(child, walk, depth + 1, recursive=True,
                                  labelledby=labelledby, hidden_ok=False)  # fmt: skip
                parts.append(f" {text} " if self.block[child] else text)
        return "".join(parts)

    def _labelledby(self, refs: str, walk: _Walk, depth: int) -> str | None:
        """2B: the referenced nodes' text alternatives, joined by spaces (None if no ref)."""
        by_id = self.doc.by_id
        targets = [by_id[r] for r in refs.split() if r in by_id]
        if not targets:
            return None
        parts = []
        for target in targets:
            # A referenced node is computed even when hidden (2A exception); the walk's root
            # is reset so a self-reference still yields the element's own content.
            inner = _Walk(-1)
            inner.named = walk.named
            inner.visited = walk.visited
            inner.budget = walk.budget
            text = self._node(target, inner, depth + 1, recursive=True, labelledby=True,
                              hidden_ok=self.hidden[target])  # fmt: skip
            walk.budget = inner.budget
            parts.append(_collapse(text))
        joined = " ".join(p for p in parts if p)
        return joined if joined else None

    # -- 2C embedded controls ------------------------------------------------------------------

    def _embedded_value(self, i: int, role: str) -> str:
        """2C: the value an embedded control contributes (an embedded menu: nothing)."""
        if role == "menu":
            return ""
        doc = self.doc
        attrs = doc.attrs[i]
        tag = doc.tags[i]
        if role in _RANGE_ROLES:
            text = attrs.get("aria-valuetext") or attrs.get("aria-valuenow")
            if text:
                return text
            if tag == "input":
                value = attrs.get("value")
                if value is None and attrs.get("type", "").lower() == "range":
                    return _range_default(attrs)
                return value or ""
            return ""
        if role in ("combobox", "listbox"):
            if tag == "select":
                return " ".join(self.selected_options(i))
            if tag == "input":
                return attrs.get("value", "")
            # The options in its subtree and in what it owns (ARIA 1.2 §6.6 aria-owns).
            spans = [(i + 1, self.end[i])]
            if "aria-owns" in attrs:
                spans.extend((j, self.end[j]) for j in self._owned(i))
            chosen = [
                j for start, stop in spans for j in range(start, stop)
                if self.roles[j] == "option" and doc.attrs[j].get("aria-selected") == "true"
            ]  # fmt: skip
            if chosen:
                return " ".join(self.text_of(j) for j in chosen)
            return "" if role == "listbox" else self.text_of(i)
        # textbox / searchbox
        if tag == "input":
            return attrs.get("value", "")
        return self.text_of(i)

    def selected_options(self, select: int) -> list[str]:
        """Labels of the options a ``<select>`` shows as chosen (the first one by default)."""
        doc = self.doc
        options = [j for j in range(select + 1, self.end[select]) if doc.tags[j] == "option"]
        chosen = [j for j in options if "selected" in doc.attrs[j]]
        multiple = "multiple" in doc.attrs[select]
        if not chosen and options and not multiple:
            chosen = options[:1]
        return [doc.attrs[j].get("label") or self.text_of(j) for j in chosen]

    # -- 2E host language labels (HTML-AAM §5 accessible name computations) ------------------

    def _native(self, i: int, walk: _Walk, depth: int) -> str:
        doc = self.doc
        tag = doc.tags[i]
        attrs = doc.attrs[i]
        if tag == "input":
            return self._input_name(i, walk, depth)
        if tag in _LABELABLE:
            text = self._from_labels(i, walk, depth)
            if text:
                return text
            if tag == "textarea":  # as for text inputs: title, then placeholder
                return (attrs.get("title", "").strip() and attrs["title"]) or attrs.get(
                    "placeholder", ""
                )
            return ""
        handler = _NATIVE_CHILD.get(tag)
        if handler is not None:
            for child in doc.content[i]:
                if isinstance(child, int) and doc.tags[child] == handler:
                    text = _collapse(self._node(child, walk, depth + 1, recursive=True,
                                               labelledby=False, hidden_ok=False))  # fmt: skip
                    if text:
                        return text
                    break
            return ""
        if tag in ("img", "area") or (tag == "image"):
            return attrs.get("alt", "")
        if tag == "svg" or (doc.namespace[i] == 1 and tag in ("g", "a", "use", "image")):
            for child in doc.content[i]:  # SVG-AAM: a <title> child names the element
                if isinstance(child, int) and doc.tags[child] == "title":
                    return self.text_of(child)
            return ""
        if tag == "optgroup":
            return attrs.get("label", "")
        if tag == "option":
            return attrs.get("label", "")
        return ""

    def _input_name(self, i: int, walk: _Walk, depth: int) -> str:
        attrs = self.doc.attrs[i]
        kind = attrs.get("type", "").strip().lower()
        if kind in ("button", "submit", "reset"):
            # HTML-AAM input type=button/submit/reset: value, else the UA default label.
            if "value" in attrs:
                return attrs["value"]
            text = self._from_labels(i, walk, depth)
            return text or _BUTTON_DEFAULTS.get(kind, "")
        if kind == "image":
            text = self._from_labels(i, walk, depth)
            for key in ("alt", "value", "title"):
                if not text and attrs.get(key, "").strip():
                    text = attrs[key]
            return text or "Submit"
        text = self._from_labels(i, walk, depth)
        if text:
            return text
        # HTML-AAM text inputs: title, then placeholder.
        title = attrs.get("title", "")
        if title.strip():
            return title
        if self.labels(i):
            # Deviation (follows Chromium): a control with a label element, even an empty
            # one, is not named from its placeholder (the placeholder is its description).
            return ""
        if kind in _TEXT_INPUT_TYPES or kind not in _NO_PLACEHOLDER:
            placeholder = attrs.get("placeholder", "")
            if placeholder.strip():
                return placeholder
        return ""

    def _from_labels(self, i: int, walk: _Walk, depth: int) -> str:
        labels = self.labels(i)
        if not labels:
            return ""
        parts = []
        for label in labels:
            text = self._node(label, walk, depth + 1, recursive=True, labelledby=False,
                              hidden_ok=False)  # fmt: skip
            parts.append(_collapse(text))
        return " ".join(p for p in parts if p)

    def _index_labels(self) -> dict[int, list[int]]:
        """label element -> its labeled control, inverted (HTML §4.10.4)."""
        doc = self.doc
        found: dict[int, list[int]] = {}
        for j in indices_of(doc.tags, "label"):
            if doc.namespace[j]:
                continue
            target = -1
            ref = doc.attrs[j].get("for")
            if ref is not None:
                k = doc.by_id.get(ref, -1)
                if k >= 0 and doc.tags[k] in _LABELABLE and doc.namespace[k] == 0:
                    target = k
            else:
                for k in range(j + 1, self.end[j]):
                    if doc.tags[k] in _LABELABLE and doc.namespace[k] == 0:
                        if (
                            doc.tags[k] == "input"
                            and doc.attrs[k].get("type", "").lower() == "hidden"
                        ):
                            continue
                        target = k
                        break
            if target >= 0:
                found.setdefault(target, []).append(j)
        return found


def _inherit(doc: Document, transform: Sequence[int]) -> list[int]:
    """Inherited text-transform per element (1 = none, 0 = never set)."""
    out = list(transform)
    parent = doc.parent
    for i in range(len(out)):
        if not out[i] and parent[i] >= 0:
            out[i] = out[parent[i]]
    return out


def _transformed(text: str, mode: int) -> str:
    if mode == 2:
        return text.upper()
    if mode == 3:
        return text.lower()
    return re.sub(r"(^|\s)(\w)", lambda m: m.group(1) + m.group(2).upper(), text)


def _range_default(attrs: Mapping[str, str]) -> str:
    """A range input without a value sits halfway between min (0) and max (100)."""
    try:
        low = float(attrs.get("min", "0") or 0)
        high = float(attrs.get("max", "100") or 100)
    except ValueError:
        return "50"
    middle = low + (high - low) / 2 if high >= low else low
    return str(int(middle)) if middle == int(middle) else str(middle)


_EMBEDDED: Final[frozenset[str]] = frozenset(
    {"textbox", "searchbox", "combobox", "listbox", *_RANGE_ROLES, "menu"}
)
"""Roles step 2C handles inside a name: embedded controls, and menus (which add nothing)."""
_NATIVE_CHILD: Final[Mapping[str, str]] = {
    "fieldset": "legend",
    "table": "caption",
}
"""HTML-AAM: elements named by a child element (the first such child). Deviation (follows
Chromium): ``figure`` is not named by its ``figcaption``."""
_NATIVE_TAGS: Final[frozenset[str]] = frozenset(
    {"input", *_LABELABLE, *_NATIVE_CHILD, "img", "area", "image", "svg", "optgroup", "option"}
)
"""Tags :meth:`NameComputer._native` may name (in any namespace)."""
_SVG_NATIVE_TAGS: Final[frozenset[str]] = frozenset({"g", "a", "use", "image"})
"""SVG elements named by a ``<title>`` child."""
_REPLACED: Final[frozenset[str]] = frozenset({"img", "svg", "canvas", "video", "audio", "iframe"})
"""Replaced elements: Deviation (follows Chromium), their text alternative is set off by
spaces inside a name like a block's (``<a><img alt="Cart icon">Shop</a>`` is "Cart icon
Shop"; accname 1.2 2F.iii only asks it for blocks)."""

_LABELLING: Final[frozenset[str]] = frozenset(
    {"aria-labelledby", "aria-label", "title", "aria-owns"}
)
"""Attributes by which an element names itself or takes content from elsewhere: an element
carrying one is neither a plain descendant nor a leaf."""
_UNTITLED: Final[frozenset[str]] = frozenset({"none", "generic", "time"})
"""Roles not named by their own ``title`` (Deviation, follows Chromium: on the captured pages
a generic ``<span title>`` or a ``<time title>`` has an empty name, while ``<abbr title>``,
Chromium's own Abbr role, is named by it; ARIA 1.2 prohibits naming generic). The title stays
in the row's ``attr:title`` column and in the row's name."""
_NO_PLACEHOLDER: Final[frozenset[str]] = frozenset(
    {"checkbox", "radio", "range", "color", "file", "hidden", "date", "datetime-local",
     "month", "time", "week"}
)  # fmt: skip
