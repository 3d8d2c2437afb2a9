"""Record one MCP session with the resolver server as Markdown (``docs/mcp-session.md``).

The SDK's own stdio client launches ``python -m resolver mcp`` on this checkout and calls
every tool on the re-rendering fixture page (``fixtures/live/rerender.html``): the catalog,
clicks by index across a re-render, the refusals, a resolve and a snapshot; then clicks that
open the page's own dialogs (``fixtures/live/dialogs.html``), unanswered and answered, and a
link that opens a tab (``fixtures/live/tabs.html``). Each request and its result are written
as JSON (a snapshot's node list is shortened); each screenshot's picture is written beside
the transcript (``mcp-screenshot-<step>.png``) and shown in it.

    python benchmarks/mcp_transcript.py [--out docs/mcp-session.md] [--chromium PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
DIALOGS = (ROOT / "fixtures" / "live" / "dialogs.html").as_uri()
TABS = (ROOT / "fixtures" / "live" / "tabs.html").as_uri()

STEPS: list[tuple[str, str, dict[str, Any]]] = [
    ("Open the page (rows carry ids, as a keyed list does).", "navigate",
     {"url": PAGE + "?keyed"}),
    ("Read the catalog: indexes and the version to pass back.", "catalog", {}),
    ("Or see it: the viewport with each element's index drawn on it, and the same catalog "
     "version (the picture is written beside this file).", "screenshot", {}),
    ("Click Sort (index 1), then Bob's Delete by the index read before the sort (4): the "
     "rows moved, the index still names Bob's button.", "execute",
     {"actions": [{"action": "click", "target": "index=1"},
                  {"action": "click", "target": "index=4"}], "expected_catalog_version": "$v1"}),
    ("The same version again: the page changed since, so it is refused.", "execute",
     {"actions": [{"action": "click", "target": "index=4"}], "expected_catalog_version": "$v1"}),
    ("Type into the Name field and choose a colour (CSS targets).", "execute",
     {"actions": [{"action": "type", "target": "css=#name", "text": "Ada", "clear": True},
                  {"action": "select", "target": "css=#colour", "label": "Blue"}]}),
    ("Open a fresh copy of the page, read its catalog, then re-render it with Bob's row "
     "removed before acting.", "navigate", {"url": PAGE}),
    ("", "catalog", {}),
    ("", "navigate", {"url": PAGE + "?do=remove"}),
    ("Bob's index after his row was removed: refused, not given to the next row.", "execute",
     {"actions": [{"action": "click", "target": "index=4"}], "expected_catalog_version": "$v2"}),
    ("A dialog now covers the page: the click is refused and lands nowhere.", "navigate",
     {"url": PAGE + "?do=modal"}),
    ("", "execute", {"actions": [{"action": "click", "target": "text=Save"}]}),
    ("Resolve a recorded reference against the page as it is.", "resolve",
     {"ref": {"role": "button", "name": "Close", "container_path": ["Notice"]}}),
    ("A reference that fits four look-alikes equally: a refusal with its candidates.",
     "resolve", {"ref": {"role": "button", "name": "Delete"}}),
    ("The page as SnapshotV1 (pruned, secrets masked).", "snapshot", {}),
    ("A page whose Delete asks confirm(): clicked with no answer given, the dialog is "
     "dismissed and the action fails, so nothing is deleted in silence.", "navigate",
     {"url": DIALOGS}),
    ("", "execute", {"actions": [{"action": "click", "target": "text=Delete Alice"}]}),
    ("The same click, accepting the dialog; the prompt of the next one gets its text.",
     "execute", {"actions": [
         {"action": "click", "target": "text=Delete Alice", "dialog": "accept"},
         {"action": "click", "target": "text=Rename Carol", "dialog": "accept",
          "dialog_text": "Cee"}]}),
    ("A link that opens a tab: execute lists it under opened; tabs makes it current, and "
     "the catalog is then the new tab's.", "navigate", {"url": TABS}),
    ("", "execute", {"actions": [{"action": "click", "target": "text=Open the users"}]}),
    ("", "tabs", {"select": 1}),
    ("", "catalog", {}),
    ("Back on the first tab, a modal dialog over the team page: the picture labels only what "
     "can be clicked and lists the rest as covered.", "tabs", {"select": 0}),
    ("", "navigate", {"url": PAGE + "?do=modal"}),
    ("", "screenshot", {}),
    ("Back in the tab's history, to the page with the link: the result brings its catalog.",
     "execute", {"actions": [{"action": "back"}]}),
]  # fmt: skip


def _shown(name: str, data: Any) -> Any:
    """A result as shown: a snapshot's nodes shortened, its time stamp left out."""
    if name != "snapshot" or not isinstance(data, dict) or "snapshot" not in data:
        return data
    snap = dict(data["snapshot"])
    snap.pop("ts", None)
    nodes = snap.get("ax_tree", {}).get("nodes", [])
    snap["ax_tree"] = {"nodes": [*nodes[:6], f"... {len(nodes) - 6} more nodes"]}
    return {**data, "snapshot": snap}


Step = tuple[str, str, dict[str, Any], Any, float]
PICTURE = "mcp-screenshot-{}.png"
"""The file name of the picture of step ``{}`` (written beside the transcript)."""


def _answer(result: Any) -> tuple[Any, bytes | None]:
    """A tool result's data (its structured content, else its text, as JSON when it is) and
    the first PNG picture in it."""
    import base64

    picture = next((base64.b64decode(c.data) for c in result.content
                    if c.type == "image" and c.mime_type == "image/png"), None)  # fmt: skip
    if result.structured_content:
        return result.structured_content, picture
    text = result.content[0].text
    try:
        return json.loads(text), picture
    except ValueError:
        return {"text": text}, picture


async def _run(chromium: str | None) -> tuple[list[Step], dict[int, bytes]]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    args = ["-m", "resolver", "mcp"] + (["--chromium", chromium] if chromium else [])
    params = StdioServerParameters(command=sys.executable, args=args, cwd=str(ROOT),
                                   env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    versions: dict[str, str] = {}
    out: list[Step] = []
    pictures: dict[int, bytes] = {}
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            for note, name, arguments in STEPS:
                sent = json.loads(json.dumps(arguments))
                if sent.get("expected_catalog_version", "").startswith("$"):
                    sent["expected_catalog_version"] = versions[sent["expected_catalog_version"]]
                started = time.perf_counter()
                result = await session.call_tool(name, sent)
                took = time.perf_counter() - started
                data, shown = _answer(result)
                if shown is not None:
                    pictures[len(out) + 1] = shown
                if name == "catalog":
                    versions[f"$v{len(versions) + 1}"] = data["version"]
                out.append((note, name, sent, _shown(name, data), took))
    return out, pictures


def _markdown(steps: list[Step]) -> str:
    lines = [
        "# An MCP session with `resolver mcp`",
        "",
        "Written by `python benchmarks/mcp_transcript.py`: the MCP SDK's stdio client "
        "launches `python -m resolver mcp` (headless Chromium) and calls its tools on "
        "`fixtures/live/rerender.html`, a page that re-renders its rows from state, as a "
        "framework does, then on `fixtures/live/dialogs.html`, whose controls open the "
        "page's own dialogs, and `fixtures/live/tabs.html`, whose link opens a tab, and back "
        "on the first with a modal dialog over the page. Paths are shown relative to the "
        "checkout.",
        "",
    ]
    for n, (note, name, sent, data, _took) in enumerate(steps, 1):
        if note:
            lines += [f"## {n}. {note}", ""]
        text = json.dumps(data, indent=2, ensure_ascii=False)
        lines += [f"**Request** `{name}`", "", "```json", json.dumps(sent, indent=2), "```", "",
                  "**Result**", ""]  # fmt: skip
        catalog = data.get("catalog") if isinstance(data, dict) else None
        if isinstance(catalog, str):
            lines += ["```text", catalog, "```", ""]
            text = json.dumps({**data, "catalog": "(the text above)"}, indent=2, ensure_ascii=False)
        lines += ["```json", text, "```", ""]
        if name == "screenshot":
            lines += [f"![The page with its catalog indexes]({PICTURE.format(n)})", ""]
    return "\n".join(lines).replace(ROOT.as_uri(), "file://.")


def main(argv: list[str] | None = None) -> int:
    """Run the session and write the transcript."""
    import anyio

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "mcp-session.md")
    default = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    parser.add_argument("--chromium", default=default)
    options = parser.parse_args(argv)
    started = time.perf_counter()
    steps, pictures = anyio.run(_run, options.chromium)
    options.out.write_text(_markdown(steps), encoding="utf-8")
    for n, picture in pictures.items():
        options.out.with_name(PICTURE.format(n)).write_bytes(picture)
    calls = ", ".join(f"{name} {took:.2f}s" for _, name, _, _, took in steps)
    print(f"wrote {options.out} ({len(steps)} calls in {time.perf_counter() - started:.1f} s: "
          f"{calls})")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
