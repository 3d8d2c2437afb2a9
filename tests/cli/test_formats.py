"""``resolver formats``: the list, detection of each input kind, errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_helpers import ROOT, SETTINGS_TREE, one_line_error, run
from recording_files import RECORDINGS, write_corrupt
from vision_images import VISION_FIXTURES


def test_list(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "formats", "--json")
    names = [row["name"] for row in json.loads(out)]
    assert code == 0 and {"cdp", "uia", "recording_v1", "html"} <= set(names)
    code, out, _ = run(capsys, "formats")
    assert code == 0 and "uiautomator" in out


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (SETTINGS_TREE, "cdp"),
        (ROOT / "fixtures" / "formats" / "uia" / "invoice.json", "uia"),
        (ROOT / "fixtures" / "formats" / "atspi" / "invoice.xml", "atspi"),
        (ROOT / "fixtures" / "captured" / "settings" / "dom.html", "html"),
        (VISION_FIXTURES / "settings" / "screenshot.png", "png"),
        (RECORDINGS / "settings.agent.json", "recording_v1"),
        (RECORDINGS / "table.openadapt.jsonl", "openadapt_jsonl"),
    ],
)
def test_detects(capsys: pytest.CaptureFixture[str], path: Path, fmt: str) -> None:
    code, out, _ = run(capsys, "formats", str(path), "--json")
    assert code == 0 and json.loads(out)["format"] == fmt
    code, out, _ = run(capsys, "formats", str(path))
    assert code == 0 and fmt in out


def test_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "formats", str(tmp_path / "absent.json"))
    assert code == 2 and "no such file" in one_line_error(err)
    (tmp_path / "odd.json").write_text('{"hello": 1}')
    code, _, err = run(capsys, "formats", str(tmp_path / "odd.json"))
    assert code == 2 and "no adapter recognises" in one_line_error(err)
    write_corrupt(tmp_path)
    code, _, err = run(capsys, "formats", str(tmp_path / "cut.jsonl"))
    assert code == 2 and "line 2" in one_line_error(err)
    code, _, err = run(capsys, "formats", str(tmp_path))
    assert code == 2
    one_line_error(err)


def test_the_list_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "formats")
    assert code == 0 and "``" not in out and ":class:" not in out
    assert '"bbox": [l, t, r, b]' in out and '"bbox": ,' not in out
    code, out, _ = run(capsys, "formats", "--json")
    about = {row["name"]: row["about"] for row in json.loads(out)}
    assert "``" not in "".join(about.values()) and "[l, t, r, b]" in about["nested"]
    assert {"SnapshotV1", "reference"} <= set(about)


def test_a_reference_and_a_snapshot_are_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ref = tmp_path / "ref.json"
    ref.write_text('{"role": "button", "name": "OK", "container_path": ["Settings"]}')
    code, out, _ = run(capsys, "formats", str(ref), "--json")
    facts = json.loads(out)
    assert code == 0 and facts["format"] == "reference" and facts["name"] == "OK"
    code, out, _ = run(capsys, "snapshot", "--tree", str(SETTINGS_TREE), "--out",
                       str(tmp_path / "snap.json"))  # fmt: skip
    code, out, _ = run(capsys, "formats", str(tmp_path / "snap.json"), "--json")
    facts = json.loads(out)
    assert code == 0 and facts["format"] == "SnapshotV1" and facts["kind"] == "snapshot"
    assert facts["rows"] > 10


def test_binary_data_is_called_binary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(256)) * 40)
    code, _, err = run(capsys, "formats", str(path))
    line = one_line_error(err)
    assert code == 2 and "binary data" in line and "UTF-8" not in line


@pytest.mark.parametrize("vision", [True, False])
def test_a_truncated_png_is_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    vision: bool,
) -> None:
    if not vision:  # without the extra, the chunk structure alone is checked
        monkeypatch.setitem(sys.modules, "resolver.adapters.vision.image", None)
    data = (VISION_FIXTURES / "settings" / "screenshot.png").read_bytes()
    for name, cut in (("head.png", data[:200]), ("tail.png", data[:-20])):
        (tmp_path / name).write_bytes(cut)
        code, _, err = run(capsys, "formats", str(tmp_path / name))
        line = one_line_error(err)
        assert code == 2 and "truncated" in line and name in line
    # The structure intact but the pixels garbled: only the decoder can tell.
    ihdr_end = 8 + 25
    garbled = tmp_path / "garbled.png"
    garbled.write_bytes(data[:ihdr_end] + _chunk(b"IDAT", b"\x00" * 64) + _chunk(b"IEND", b""))
    code, _, err = run(capsys, "formats", str(garbled))
    assert code == (2 if vision else 0)


def _chunk(kind: bytes, body: bytes) -> bytes:
    import struct
    import zlib

    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def test_a_screenshot_is_checked_against_the_given_limits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("cv2")
    path = VISION_FIXTURES / "settings" / "screenshot.png"
    code, _, err = run(capsys, "formats", str(path), "--limit", "max_image_pixels=100")
    line = one_line_error(err)
    assert code == 2 and "max_image_pixels" in line
    assert run(capsys, "formats", str(path))[0] == 0
