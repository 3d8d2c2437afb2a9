"""Files put into a page's file fields by execute(): a field directly, a hidden field through
the chooser its button opens, one file for a field that takes one, nothing for a control that
opens no chooser or a disabled field, an empty list empties; paths checked and confined."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from live_browser import ROOT, browser_missing

from resolver.act import execute, parse_action, session_for
from resolver.act.uploads import upload_paths
from resolver.errors import InvalidTargetError

PAGE = (ROOT / "fixtures" / "live" / "uploads.html").as_uri()
live = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))


@pytest.fixture
def files(tmp_path: Path) -> Path:
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text(name)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.txt").write_text("c")
    return tmp_path


def test_paths_are_files_and_stay_in_the_upload_folder(files: Path) -> None:
    a = str(files / "a.txt")
    assert upload_paths([a], allowed=True, root=None) == [a]
    inside = upload_paths(["sub/c.txt", "a.txt"], allowed=True, root=files)
    assert inside == [str(files / "sub" / "c.txt"), a]
    secret = files.parent / f"{files.name}-secret.txt"
    secret.write_text("x")
    (files / "link.txt").symlink_to(secret)
    for given, root in ((a, files), ("../" + secret.name, files), ("link.txt", files),
                        ("missing.txt", files), (str(files / "sub"), None)):  # fmt: skip
        with pytest.raises(InvalidTargetError):
            upload_paths([given], allowed=True, root=root)
    with pytest.raises(InvalidTargetError, match="--upload-dir"):
        upload_paths([a], allowed=False, root=None)
    for odd in ("a\x00b", "x" * 5000, "/" + "a/" * 3000, "~no-such-user-x/a.txt", "\udcff"):
        for root in (None, files):
            with pytest.raises(InvalidTargetError):
                upload_paths([odd], allowed=True, root=root)


def test_an_upload_action_is_validated() -> None:
    action = parse_action({"action": "upload", "target": "css=#f", "files": ["a.txt"]})
    assert action.files == ("a.txt",)  # type: ignore[union-attr]
    for bad in (
        {"action": "upload", "target": "css=#f"},
        {"action": "upload", "target": "css=#f", "files": "a.txt"},
        {"action": "upload", "target": "css=#f", "files": [""]},
        {"action": "upload", "target": "css=#f", "files": ["a"] * 21},
    ):
        with pytest.raises(InvalidTargetError):
            parse_action(bad)


def _upload(page: Any, target: str, *files: Path | str) -> Any:
    return execute(page, [{"action": "upload", "target": target, "files": [str(f) for f in files]}])


@pytest.mark.browser
@live
def test_fields_and_a_chooser_get_the_files(page: Any, files: Path) -> None:
    page.goto(PAGE)
    a, b = files / "a.txt", files / "b.txt"
    results = [
        _upload(page, "css=#avatar", a),
        _upload(page, "css=#attachments", a, b),
        _upload(page, "text=Choose photos", b, a),  # (the hidden field behind the button)
        _upload(page, "css=#avatar"),  # (emptied)
    ]
    assert [r.success for r in results] == [True] * 4, [r.error for r in results]
    assert page.evaluate("window.changes") == [
        "avatar:a.txt", "attachments:a.txt,b.txt", "photos:b.txt,a.txt", "avatar:",
    ]  # fmt: skip


@pytest.mark.browser
@live
def test_what_cannot_take_the_files_is_refused_and_nothing_changes(page: Any, files: Path) -> None:
    page.goto(PAGE)
    a, b = files / "a.txt", files / "b.txt"
    two = _upload(page, "css=#avatar", a, b)
    chooserless = _upload(page, "text=Not a chooser", a)
    locked = _upload(page, "css=#locked", a)
    empty_button = _upload(page, "text=Choose photos")
    missing = _upload(page, "css=#avatar", files / "nope.txt")
    codes = [r.error.code if r.error else None for r in (two, chooserless, locked, empty_button,
                                                          missing)]  # fmt: skip
    assert codes == ["VALIDATION_ERROR", "ELEMENT_NOT_INTERACTABLE", "ELEMENT_NOT_INTERACTABLE",
                     "VALIDATION_ERROR", "VALIDATION_ERROR"]  # fmt: skip
    assert "takes one file" in two.error.message  # type: ignore[union-attr]
    assert "no file chooser" in chooserless.error.message  # type: ignore[union-attr]
    assert page.evaluate("window.changes") == []


@pytest.mark.browser
@live
def test_a_session_confines_or_refuses_uploads(page: Any, files: Path) -> None:
    page.goto(PAGE)
    session = session_for(page)
    try:
        session.upload_root = files
        inside = _upload(page, "css=#attachments", "a.txt", "sub/c.txt")
        outside = _upload(page, "css=#avatar", files / "a.txt")
        session.uploads = False
        off = _upload(page, "css=#avatar", "a.txt")
    finally:
        session.uploads, session.upload_root = True, None
    assert inside.success and page.evaluate("window.changes") == ["attachments:a.txt,c.txt"]
    assert outside.error is not None and outside.error.code == "VALIDATION_ERROR"
    assert off.error is not None and "--upload-dir" in off.error.message


@pytest.mark.browser
@live
def test_a_chooser_in_a_frame_another_process_draws(page: Any, files: Path) -> None:
    from live_browser import served

    with served() as (port,):
        form = f"http://localhost:{port}/uploads.html"  # (another site: its own process)
        page.goto(f"http://127.0.0.1:{port}/checkout.html?{form}")
        page.frame_locator("#card").get_by_text("Choose photos").wait_for()
        chosen = _upload(page, "text=Choose photos", files / "a.txt", files / "b.txt")
        frame = next(f for f in page.frames if f.parent_frame is not None)
        assert chosen.success, chosen.error
        assert frame.evaluate("window.changes") == ["photos:a.txt,b.txt"]
