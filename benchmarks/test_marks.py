"""The marks benchmark (``benchmarks/marks.py``): its totals, a real page measured, and a
run without the corpus that says so."""

from pathlib import Path
from typing import Any

import pytest
from live_browser import browser_missing

from benchmarks import marks
from benchmarks.relocation.run import corpus_pages


def _row(page: str, split: str, marked: int, crowded: int, ms: float) -> dict[str, Any]:
    return {"page": page, "split": split, "entries": marked + 3, "marked": marked,
            "crowded": crowded, "ms": ms}  # fmt: skip


def test_the_summary_counts_and_shares() -> None:
    rows = [_row("a", "tune", 10, 1, 4.0), _row("b", "tune", 30, 0, 8.0),
            _row("c", "heldout", 0, 0, 1.0)]  # fmt: skip
    got = marks.summary(rows)
    assert (got["pages"], got["marked"], got["crowded"]) == (3, 40, 1)
    assert got["crowded_share"] == 0.025 and got["pages_with_crowded"] == 1
    assert got["marked_per_page_median"] == 10 and got["marked_per_page_max"] == 30
    assert got["ms_median"] == 4.0 and got["ms_max"] == 8.0
    assert marks.summary([])["pages"] == 0


def test_without_the_corpus_it_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(marks, "corpus_pages", list)
    assert marks.main([]) == 0
    assert "corpus not found" in capsys.readouterr().err


@pytest.mark.corpus
@pytest.mark.browser
@pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))
@pytest.mark.skipif(not corpus_pages(), reason="needs the readability-pages corpus")
def test_a_real_page_is_measured(tmp_path: Path) -> None:
    page = next(p for p in corpus_pages() if p.name == "spiceworks")
    row = marks.page_marks(page)
    assert row is not None and row["page"] == "spiceworks" and row["split"] == "tune"
    assert 0 < row["marked"] <= row["entries"] and 0 <= row["crowded"] <= row["marked"]
