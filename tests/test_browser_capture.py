"""End to end with a real browser: capture a fixture page live, then resolve refs recorded on
the committed capture of the same page against the fresh one."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from resolver import resolve
from resolver.capture import ref_from_row
from resolver.replay import read_capture

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="needs /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("capture")
    page = ROOT / "fixtures" / "pages" / "settings.v2.html"
    subprocess.run(
        [sys.executable, str(ROOT / "fixtures" / "capture.py"), "--out", str(out), str(page)],
        check=True,
        timeout=240,
    )
    return out / "settings.v2"


def test_live_capture_has_the_expected_files(fresh: Path) -> None:
    for name in ("axtree.json", "dom.html", "labels.json", "meta.json", "screenshot.png"):
        assert (fresh / name).exists(), name
    assert "data-fixture-key" not in (fresh / "dom.html").read_text()


def test_refs_recorded_on_the_base_page_resolve_in_the_live_capture(fresh: Path) -> None:
    base = read_capture(ROOT / "fixtures" / "captured" / "settings")
    live = read_capture(fresh)
    table = base.observation.candidates("a11y")
    rows = {node: i for i, node in enumerate(table.ids)}
    checked = 0
    for key, label in base.labels.items():
        row = rows.get(str(label.get("ax_node_id")))
        target = live.labels.get(key)
        if row is None or not target or target.get("ax_node_id") is None:
            continue
        if key == "settings.network.ok":  # renamed to "Apply" in v2: abstaining is right
            continue
        res = resolve(ref_from_row(table, row), live.observation, sources=("a11y",))
        assert res.executor_id == f"a11y:{target['ax_node_id']}", key
        checked += 1
    assert checked >= 8
