"""Captured page versions: what ``fixtures/capture.py`` writes, read back as observations.

A capture holds ``axtree.json`` (CDP nodes with boxes), ``dom.html``, ``chromium_dom.json``
(Chromium's element boxes and backend IDs), ``meta.json`` and ``labels.json``, which maps
stable keys to the labelled elements of that version. Captures are read from a folder of
capture folders, or from the demo bundle that ships inside the package
(:func:`demo_captures`), so the demo runs from a wheel as well as from a checkout.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..errors import InvalidObservationError
from ..limits import DEFAULT_LIMITS, Limits
from ..observation import Observation

__all__ = [
    "BUNDLE_FILES",
    "Capture",
    "bundle_folder",
    "demo_captures",
    "folder_captures",
    "load_capture",
    "read_capture",
    "write_bundle",
]

BUNDLE_FILES: Final[tuple[str, ...]] = (
    "axtree.json", "chromium_dom.json", "dom.html", "labels.json", "meta.json",
)  # fmt: skip
"""The files of a capture that the demo bundle keeps (screenshots are left out)."""
DEMO_BUNDLE: Final[str] = "demo_captures.json.gz"


@dataclass(frozen=True)
class Capture:
    """One captured page version."""

    name: str
    observation: Observation
    labels: dict[str, dict[str, Any]]
    meta: dict[str, Any]


def load_capture(
    name: str,
    files: Mapping[str, str],
    *,
    with_dom: bool = True,
    limits: Limits = DEFAULT_LIMITS,
) -> Capture:
    """A capture from its files' texts (``{"axtree.json": "...", ...}``); its observation
    reads them within ``limits``."""
    try:
        meta = json.loads(files["meta.json"])
        tree = json.loads(files["axtree.json"])
        labels = json.loads(files["labels.json"])
    except (KeyError, json.JSONDecodeError) as exc:
        raise InvalidObservationError(f"capture {name!r} is incomplete or corrupt: {exc}") from exc
    viewport = meta.get("viewport") or tree.get("viewport")
    links: dict[str, str] | None = None
    layout: dict[str, list[float]] | None = None
    if with_dom and "chromium_dom.json" in files:
        records = json.loads(files["chromium_dom.json"])
        links = {
            str(r["backend_node_id"]): r["xpath"]
            for r in records
            if r.get("backend_node_id") is not None
        }
        layout = {r["xpath"]: r["bbox"] for r in records if r.get("bbox")}
    obs = Observation(
        accessibility_tree=tree,
        dom_html=files.get("dom.html") if with_dom else None,
        screen_size=tuple(viewport) if viewport else None,
        url=meta.get("url"),
        dom_layout=layout,
        dom_node_map=links,
        limits=limits,
    )
    return Capture(name, obs, labels, meta)


def read_capture(folder: Path, *, with_dom: bool = True) -> Capture:
    """The capture in one folder."""
    files = {
        n: (folder / n).read_text(encoding="utf-8") for n in BUNDLE_FILES if (folder / n).is_file()
    }
    return load_capture(folder.name, files, with_dom=with_dom)


def bundle_folder(root: Path) -> dict[str, dict[str, str]]:
    """The texts of every capture folder under ``root`` (those with a ``labels.json``)."""
    return {
        folder.name: {
            name: (folder / name).read_text(encoding="utf-8")
            for name in BUNDLE_FILES
            if (folder / name).is_file()
        }
        for folder in sorted(root.iterdir())
        if (folder / "labels.json").is_file()
    }


def folder_captures(root: Path) -> dict[str, dict[str, str]]:
    """:func:`bundle_folder`, with a clear error when ``root`` holds no captures."""
    if not root.is_dir():
        raise InvalidObservationError(f"no captured fixtures at {root}")
    found = bundle_folder(root)
    if not found:
        raise InvalidObservationError(f"{root} holds no capture folders (with a labels.json)")
    return found


def write_bundle(root: Path, out: Path) -> int:
    """Write the captures under ``root`` as a demo bundle (gzip'd JSON) at ``out``; returns
    how many captures it holds. The bundle is reproducible: same captures, same bytes."""
    data = bundle_folder(root)
    raw = json.dumps(data, sort_keys=True, separators=(",", ":")).encode("utf-8")
    out.write_bytes(gzip.compress(raw, 9, mtime=0))
    return len(data)


def demo_captures() -> dict[str, dict[str, str]]:
    """The captures bundled with the package (the project's six pages, three versions each)."""
    data = resources.files(__package__).joinpath(DEMO_BUNDLE).read_bytes()
    bundle: dict[str, dict[str, str]] = json.loads(gzip.decompress(data))
    return bundle
