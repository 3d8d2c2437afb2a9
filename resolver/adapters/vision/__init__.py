"""The vision source: screenshot -> candidate table (OCR text and widget boxes).

Not in this version: :func:`build_table` refuses with
:class:`~resolver.errors.SourceUnavailableError`, which the chain records as ``unavailable``
before it moves on. The screenshot is never used to guess.
"""

from __future__ import annotations

from ...errors import SourceUnavailableError
from ...table import CandidateTable
from ..base import SourceInput

__all__ = ["build_table"]


def build_table(source: SourceInput) -> CandidateTable:
    """Refuse: OCR and widget detection on screenshots are not in this version."""
    raise SourceUnavailableError(
        "the vision source (OCR and widget detection on screenshots) is not in this version; "
        "the screenshot was not used",
        details={"source": "vision"},
    )
