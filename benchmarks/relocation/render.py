"""Render HTML in headless Chromium with ``fixtures/capture.py``, cached by a hash of the HTML
and of the machine's fonts.

A render is the capture files (``axtree.json``, ``chromium_dom.json``, ``dom.html``,
``labels.json``, ``meta.json``) kept as one gzip'd JSON object ``{file name: text}`` in
``<cache>/<hash[:2]>/<hash>.json.gz``; :func:`resolver.replay.captures.load_capture` reads
that mapping directly. The cache folder is ``$RESOLVER_RELOCATION_CACHE`` or
``benchmarks/relocation/.cache``. Failed renders are not cached (they are tried again on
the next run). The key holds the font families fontconfig lists (:func:`font_set`): a page
in a script that no installed font covers is drawn as empty boxes of another width, which
neither a person nor OCR reads, so installing a font makes every render again.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from resolver.replay.captures import BUNDLE_FILES

__all__ = [
    "SCRIPTS",
    "RenderError",
    "cache_root",
    "font_set",
    "html_key",
    "render",
    "uncovered_scripts",
    "uncovered_warning",
]

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CAPTURE_SCRIPT = REPO / "fixtures" / "capture.py"
RENDER_VERSION = "relocation-render-1"  # change to invalidate every cached render
DEFAULT_CHROMIUM = "/usr/bin/chromium"


class RenderError(Exception):
    """A page could not be rendered."""


def cache_root() -> Path:
    """Where renders are kept."""
    env = os.environ.get("RESOLVER_RELOCATION_CACHE")
    return Path(env) if env else HERE / ".cache"


def _fc_list(*pattern: str) -> str | None:
    """What ``fc-list <pattern> family`` prints, or ``None`` where it is missing or fails."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return None
    try:
        return subprocess.run(
            [fc_list, *pattern, "family"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None


@cache
def font_set() -> tuple[str, ...]:
    """The font families fontconfig lists on this machine (those Chromium draws with),
    sorted; empty where ``fc-list`` is missing or fails."""
    listed = _fc_list(":")
    if listed is None:
        return ()
    return tuple(sorted({line.split(",")[0].strip() for line in listed.splitlines() if line}))


SCRIPTS: tuple[tuple[str, str], ...] = (("zh", "Chinese"), ("ja", "Japanese"))
"""The corpus's scripts that the fonts of a bare Debian image do not draw: fontconfig's
language code and the script's name."""


@cache
def uncovered_scripts() -> tuple[str, ...]:
    """The :data:`SCRIPTS` no installed font draws (``fc-list :lang=<code>`` lists none):
    their pages render as empty boxes, which neither a person nor OCR reads, so figures made
    without them are not comparable. Empty where ``fc-list`` is missing or fails (nothing
    is known then)."""
    missing = []
    for code, script in SCRIPTS:
        listed = _fc_list(f":lang={code}")
        if listed is None:
            return ()
        if not listed.strip():
            missing.append(script)
    return tuple(missing)


def uncovered_warning(missing: tuple[str, ...]) -> str:
    """The line a report prints when fonts for ``missing`` scripts are not installed (empty
    when none is missing)."""
    if not missing:
        return ""
    return (
        f"Warning: no installed font draws {' or '.join(missing)}: pages in those scripts "
        "render as empty boxes, so these figures are not comparable with the results "
        "document's (Debian: apt-get install fonts-noto-cjk)."
    )


def html_key(html: str) -> str:
    """The cache key of a page's HTML, rendered with this machine's fonts."""
    fonts = "\n".join(font_set())
    return hashlib.sha1(f"{RENDER_VERSION}\0{fonts}\0{html}".encode()).hexdigest()


def load_script_attribute(script: Path, attribute: str) -> Any:
    """An attribute of a script under ``fixtures/`` (no package there), loaded by path."""
    spec = importlib.util.spec_from_file_location(f"_script_{script.stem}", script)
    if spec is None or spec.loader is None:
        raise RenderError(f"cannot load {script}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, attribute)


@cache
def _capture_page() -> Callable[..., dict[str, Any]]:
    """``capture_page`` of ``fixtures/capture.py``."""
    found: Callable[..., dict[str, Any]] = load_script_attribute(CAPTURE_SCRIPT, "capture_page")
    return found


def _cached(path: Path) -> dict[str, str] | None:
    if not path.is_file():
        return None
    try:
        files: dict[str, str] = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, ValueError, EOFError):
        return None  # a damaged entry: render again
    return files if all(n in files for n in BUNDLE_FILES) else None


def render(
    html: str, *, chromium: str = DEFAULT_CHROMIUM, timeout: float = 90.0, attempts: int = 2
) -> tuple[dict[str, str], bool]:
    """The capture files of ``html`` rendered at 1280x800, and whether they came from the cache.

    Raises
    ------
    RenderError
        Every attempt failed.
    """
    key = html_key(html)
    path = cache_root() / key[:2] / f"{key}.json.gz"
    found = _cached(path)
    if found is not None:
        return found, True
    capture_page = _capture_page()
    last: Exception | None = None
    for _ in range(attempts):
        with tempfile.TemporaryDirectory(prefix="relocation-render-") as tmp:
            folder = Path(tmp)
            page = folder / "page.html"
            page.write_text(html, encoding="utf-8")
            out = folder / "out"
            try:
                capture_page(
                    page, out, chromium, timeout=timeout, screenshot=False, base_dir=folder
                )
                files = {n: (out / n).read_text(encoding="utf-8") for n in BUNDLE_FILES}
            except Exception as exc:  # any failure of one page is reported, never fatal
                last = exc
                continue
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = json.dumps(files, sort_keys=True, separators=(",", ":")).encode("utf-8")
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(gzip.compress(raw, 6, mtime=0))
        try:
            os.replace(partial, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
        return files, False
    raise RenderError(f"{type(last).__name__}: {last}")
