"""Act on a live page by catalog index (or ``css=``/``xpath=``/``text=``), safely across
re-renders: :func:`execute` runs a list of actions and answers an :class:`ExecuteResult`;
:class:`PageSession` keeps the catalog an agent last read of a page; a dialog the page opens
meanwhile is answered as the action says and listed (:class:`DialogSeen`,
:mod:`resolver.act.dialogs`); given ``recorder=``, the run is written as a recording that
``resolver replay`` reads (:mod:`resolver.act.recording`). :func:`durable_locators`
turns a resolved element into locators a person can keep (``get_by_role``, CSS, XPath), each
verified on the page to select exactly that element.

Needs a Playwright page on Chromium (``pip install 'resolver[browser]'``); nothing from
Playwright is imported here.
"""

from __future__ import annotations

from .execute import error_of, execute, summarize
from .locators import DurableLocators, durable_locators
from .model import (
    MAX_ACTIONS,
    ActionError,
    DialogSeen,
    ExecuteResult,
    ObservationSummary,
    PageOpened,
    parse_action,
)
from .session import PageSession, session_for

__all__ = [
    "MAX_ACTIONS",
    "ActionError",
    "DialogSeen",
    "DurableLocators",
    "ExecuteResult",
    "ObservationSummary",
    "PageOpened",
    "PageSession",
    "durable_locators",
    "error_of",
    "execute",
    "parse_action",
    "session_for",
    "summarize",
]
