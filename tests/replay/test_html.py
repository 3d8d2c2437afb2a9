"""The HTML report: self-contained, with charts and explain pictures; it renders in
headless Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from recording_files import CAPTURED, RECORDINGS, write_corrupt

from resolver.replay.html import failure_pictures, render_html
from resolver.replay.model import ReplayOptions
from resolver.replay.report import build_report
from resolver.replay.run import replay_local
from resolver.replay.sources import discover

CHROMIUM = Path("/usr/bin/chromium")


def _page(tmp_path: Path) -> str:
    write_corrupt(tmp_path)
    options = ReplayOptions(sources=("a11y",), against="next")
    results = replay_local(discover([RECORDINGS, CAPTURED, tmp_path]), options)
    pictures = failure_pictures(results, options, limit=3)
    assert len(pictures) == 3 and all(png.startswith(b"\x89PNG") for _, png in pictures)
    return render_html(build_report(results), pictures)


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    page = _page(tmp_path)
    assert page.count("<svg") == 4 and page.count("data:image/png;base64,") == 3
    assert "Verdicts by deciding rule" in page and "accept.score" in page
    assert not re.search(r"(src|href)=\"?https?:", page)  # nothing fetched
    assert "Corrupt or unreadable" in page and "cut.jsonl" in page


@pytest.mark.browser
@pytest.mark.timeout(120)
def test_the_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium")
    html = tmp_path / "report.html"
    html.write_text(_page(tmp_path), encoding="utf-8")
    shot = tmp_path / "shot.png"
    profile = tempfile.mkdtemp()
    try:
        subprocess.run(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                f"--screenshot={shot}",
                "--window-size=1280,1600",
                html.as_uri(),
            ],
            capture_output=True,
            timeout=90,
            check=False,
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert shot.is_file()
    import numpy as np

    from resolver.adapters.vision.image import load_screenshot

    pytest.importorskip("cv2")
    pixels = load_screenshot(shot.read_bytes(), "bgr").pixels
    # the charts' green bars are drawn: a good share of pure chart green in the top half
    top = pixels[: pixels.shape[0] // 2]
    green = np.all(np.abs(top.astype(int) - (0x32, 0x7D, 0x2E)) < 8, axis=-1).mean()
    assert green > 0.003


def test_the_pictures_are_drawn_within_the_limits(tmp_path: Path) -> None:
    from resolver.limits import Limits

    options = ReplayOptions(sources=("a11y",), against="next")
    results = replay_local(discover([RECORDINGS]), options)
    assert len(failure_pictures(results, options, limit=1)) == 1
    tight = ReplayOptions(sources=("a11y",), against="next", limits=Limits(max_nodes=5))
    assert failure_pictures(results, tight, limit=1) == []  # every snapshot is refused
