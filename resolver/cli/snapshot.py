"""``resolver snapshot``: one observation as a SnapshotV1 document (pruned and redacted by
default), on stdout or in a file."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ..errors import ResolutionError
from ..snapshot import to_snapshot_v1
from ._inputs import (
    DomOpt,
    FormatOpt,
    LimitOpt,
    ScreenSizeOpt,
    TreeOpt,
    UrlOpt,
    read_observation,
)
from ._output import CliError, emit_json

__all__ = ["register", "run_snapshot"]


class SnapshotSource(StrEnum):
    """The table the snapshot flattens."""

    a11y = "a11y"
    dom = "dom"


def register(app: typer.Typer) -> None:
    """Add the ``snapshot`` command."""
    app.command("snapshot")(run_snapshot)


def run_snapshot(
    tree: TreeOpt = None,
    dom: DomOpt = None,
    tree_format: FormatOpt = None,
    screen_size: ScreenSizeOpt = None,
    url: UrlOpt = None,
    source: Annotated[
        SnapshotSource | None,
        typer.Option(help="Flatten this source's table (default: a11y when there is a tree)."),
    ] = None,
    prune: Annotated[
        bool, typer.Option(help="Keep only rows a reference can name, and their containers.")
    ] = True,
    redact: Annotated[
        bool, typer.Option(help="Mask passwords, tokens, card numbers and similar values.")
    ] = True,
    include_dom: Annotated[
        bool, typer.Option(help="Add the page's HTML (scripts and styles removed, masked).")
    ] = False,
    trace_id: Annotated[str | None, typer.Option(help="Logged as the snapshot's trace_id.")] = None,
    out: Annotated[
        Path | None, typer.Option(help="Write the snapshot to this file instead of stdout.")
    ] = None,
    limit: LimitOpt = None,
) -> None:
    """Write one observation as a SnapshotV1 document (JSON).

    On stdout a string over 2,000 characters is cut and says its length (the page's HTML of
    --include-dom is kept whole); --out writes the document as it is. Exit 0 done, 2 bad
    input.
    """
    obs = read_observation(tree, dom, tree_format=tree_format, screen_size=screen_size,
                           url=url, limits=limit)  # fmt: skip
    try:
        snap = to_snapshot_v1(
            obs, source=source.value if source else None, prune=prune, redact=redact,
            trace_id=trace_id, include_dom=include_dom,
        )  # fmt: skip
    except ResolutionError as exc:
        raise CliError(exc.message) from exc
    if out is None:
        emit_json(snap, keep=("html",))
        return
    try:
        out.write_text(json.dumps(snap, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"--out: cannot write {out}: {exc.strerror or exc}") from exc
    typer.echo(f"wrote {out} ({snap['quality']['nodes_kept']} nodes)", err=True)
