"""``to_snapshot_v1``: an observation flattened into a SnapshotV1 document.

A snapshot is what an agent runtime logs per step: small, readable, and safe to keep. It
reads back as an a11y source (``Observation(accessibility_tree=snapshot)``; the ``snapshot``
tree format) and resolves as the observation it came from did.

Pruning keeps the rows a reference can name (controls, headings, images, named landmarks and
anything with a platform ID; text fields even without a name), the uniquely named rows with
a box (a reference's anchors: where they moved tells how the page moved) and every ancestor
that gives them a container path entry, re-parented to their nearest kept ancestor under one
synthetic root. An unnamed table row, list item or article that labels its descendants by
its text keeps that label as its name, so container paths read back unchanged.

The document: ``{snapshot_version, snapshot_id, trace_id, ts, url, title, viewport,
coord_space, stabilization, quality {pruned, redacted, masked_values, nodes_total,
nodes_kept}, ax_tree {root_id, nodes [id, role, name, value, state, children, bbox?,
domRef?, properties?]}, dom?}``.

Every text in it is valid Unicode, so it is written as UTF-8 whatever the page held: a lone
surrogate (``"a\\ud800b"``, which a tree read from JSON escapes or from a platform's UTF-16
may carry) becomes U+FFFD, the replacement character, in names and values; in node IDs it
is written as its escape (``"a\\\\ud800b"``), so two IDs that differ only there stay two.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final

from ..adapters.dom.elements import ElementFacts
from ..catalog.entries import page_facts
from ..errors import InvalidObservationError
from ..index import index_of
from ..observation import Observation
from ..roles import ACTIONABLE_ROLES, CONTENT_NAMED_CONTAINERS, INPUT_ROLES, LABEL_ROLES
from ..table import CandidateTable
from ..text import valid_unicode
from .dom import dom_excerpt, dom_secrets
from .redact import Scrubber, is_sensitive

__all__ = ["ROOT_ID", "SNAPSHOT_VERSION", "to_snapshot_v1"]

SNAPSHOT_VERSION: Final[int] = 1
ROOT_ID: Final[str] = "snapshot-root"
_PRUNED_ROLES: Final[frozenset[str]] = (LABEL_ROLES - {"img"}) | {"document"}
_SURROGATE: Final[re.Pattern[str]] = re.compile("[\ud800-\udfff]")
_ID_PROPS: Final[tuple[tuple[str, str], ...]] = (
    ("automation_id", "automation_id"), ("accessibility_id", "accessibility_id"),
    ("css", "css"), ("testid", "test_id"),
)  # fmt: skip


def _default_source(obs: Observation) -> str:
    if obs.has("a11y"):
        return "a11y"
    if obs.has("dom"):
        return "dom"
    raise InvalidObservationError("a snapshot needs an accessibility tree or the page's DOM")


def _useful(table: CandidateTable) -> list[bool]:
    """Per row, whether a reference can name it, or uses it as an anchor (a uniquely named
    row with a box: where anchors moved tells how the page moved)."""
    columns = [table.platform_ids[c] for c, _ in _ID_PROPS if c in table.platform_ids]
    anchors = index_of(table).unique_named
    useful = []
    for row, (role, name) in enumerate(zip(table.roles, table.names, strict=True)):
        useful.append(
            role in ACTIONABLE_ROLES
            or role in INPUT_ROLES
            or (bool(name) and role not in _PRUNED_ROLES)
            or bool(anchors[row])
            or any(column[row] for column in columns)
        )
    return useful


def _labels(table: CandidateTable) -> dict[int, str]:
    """Per row that adds an entry to its children's container paths, that entry."""
    added: dict[int, str] = {}
    containers, parent = table.containers, table.parent
    for row in range(len(table)):
        p = int(parent[row])
        if p >= 0 and p not in added and containers[row] != containers[p] and containers[row]:
            added[p] = containers[row][-1]
    return added


def _kept(table: CandidateTable, prune: bool, labels: Mapping[int, str]) -> list[int]:
    """Rows the snapshot keeps, in pre-order."""
    if not prune:
        return list(range(len(table)))
    keep = [False] * len(table)
    parent = table.parent
    for row, useful in enumerate(_useful(table)):
        if keep[row] or not useful:
            continue
        keep[row] = True
        p = int(parent[row])
        while p >= 0 and not keep[p]:
            keep[p] = p in labels
            p = int(parent[p])
    return [row for row, on in enumerate(keep) if on]


def _secrets(table: CandidateTable, facts: ElementFacts, scrubber: Scrubber) -> set[int]:
    """Rows whose value is a secret (each value remembered by the scrubber)."""
    rows: set[int] = set()
    for row, value in enumerate(table.values):
        role = table.roles[row]
        if role not in INPUT_ROLES and role not in ACTIONABLE_ROLES and not value:
            continue
        attrs = facts.attrs(row) if facts.known else None
        if is_sensitive(role, table.names[row], raw_role=table.raw_roles[row], attrs=attrs):
            rows.add(row)
            scrubber.mask(value)
    return rows


def _state(table: CandidateTable, row: int) -> dict[str, bool]:
    """Known states only: ``disabled``, ``hidden``, ``focused``."""
    state: dict[str, bool] = {}
    if table.enabled[row] >= 0:
        state["disabled"] = not bool(table.enabled[row])
    if table.visible[row] >= 0:
        state["hidden"] = not bool(table.visible[row])
    if table.focused[row] >= 0:
        state["focused"] = bool(table.focused[row])
    return state


def _node(
    table: CandidateTable, row: int, name: str, value: str, children: list[str]
) -> dict[str, Any]:
    """One SnapshotV1 node."""
    node: dict[str, Any] = {
        "id": table.ids[row],
        "role": table.roles[row],
        "name": name,
        "value": value,
        "state": _state(table, row),
        "children": children,
    }
    box = table.box(row)
    if box is not None:
        node["bbox"] = [round(v, 2) for v in box]
    xpath = table.xpaths[row]
    if xpath:
        node["domRef"] = xpath
    props = {
        key: table.platform_ids[column][row]
        for column, key in _ID_PROPS
        if column in table.platform_ids and table.platform_ids[column][row]
    }
    if props:
        node["properties"] = props
    return node


def _nodes(
    table: CandidateTable,
    kept: list[int],
    labels: Mapping[int, str],
    secret: set[int],
    scrubber: Scrubber,
    prune: bool,
) -> list[dict[str, Any]]:
    """The kept rows as nodes, each child listed under its nearest kept ancestor, and the
    synthetic root first."""
    position = {row: i + 1 for i, row in enumerate(kept)}
    children: list[list[str]] = [[] for _ in range(len(kept) + 1)]
    parent = table.parent
    for row in kept:
        p = int(parent[row])
        while p >= 0 and p not in position:
            p = int(parent[p])
        children[position.get(p, 0)].append(table.ids[row])
    nodes = [
        {
            "id": ROOT_ID,
            "role": "none",
            "name": "",
            "value": "",
            "state": {},
            "children": children[0],
        }
    ]
    for row in kept:
        name = table.names[row]
        if prune and not name and table.roles[row] in CONTENT_NAMED_CONTAINERS:
            name = labels.get(row, "")
        value = "[redacted]" if row in secret and table.values[row] else table.values[row]
        nodes.append(
            _node(table, row, scrubber.scrub(name), scrubber.scrub(value), children[position[row]])
        )
    return nodes


def to_snapshot_v1(
    observation: Observation | Any,
    *,
    source: str | None = None,
    prune: bool = True,
    redact: bool = True,
    trace_id: str | None = None,
    ts: str | None = None,
    stabilization: Mapping[str, Any] | None = None,
    include_dom: bool = False,
    dom_chars: int = 20_000,
) -> dict[str, Any]:
    """Flatten ``observation`` into a SnapshotV1 document (a JSON-ready dict).

    Parameters
    ----------
    observation:
        An :class:`~resolver.Observation` (or anything ``Observation.from_any`` takes).
    source:
        ``"a11y"`` (default when there is a tree) or ``"dom"``.
    prune:
        Keep only the rows a reference can name and the containers around them.
    redact:
        Mask the values of password, one-time-code, token, card, CVV, IBAN and similar fields
        (see :mod:`resolver.snapshot.redact`) and remove those values from every other text.
    trace_id, ts, stabilization:
        Logged as given (``ts`` defaults to now, UTC, ISO 8601; ``stabilization`` to
        ``{"method": "none"}``).
    include_dom:
        Add ``dom``: the page's HTML without scripts and styles, secrets masked, cut at
        ``dom_chars`` characters.

    Returns
    -------
    dict
        SnapshotV1 (module doc): ``snapshot_id`` is a digest of the content.

    Raises
    ------
    InvalidObservationError
        The observation has neither a tree nor a DOM, or cannot be read.

    Examples
    --------
    >>> from resolver import Observation
    >>> tree = {"id": "f", "role": "form", "name": "Log in", "children": [
    ...     {"id": "p", "role": "textbox", "name": "Password", "value": "hunter22"}]}
    >>> snap = to_snapshot_v1(Observation(accessibility_tree=tree), ts="2026-01-01T00:00:00Z")
    >>> [(n["id"], n["value"]) for n in snap["ax_tree"]["nodes"]]
    [('snapshot-root', ''), ('f', ''), ('p', '[redacted]')]
    """
    obs = Observation.from_any(observation)
    table = obs.candidates(source or _default_source(obs))
    snapshot, scrubber = _document(obs, table, prune, redact)
    snapshot["trace_id"] = trace_id
    snapshot["ts"] = ts or datetime.now(UTC).isoformat(timespec="milliseconds")
    snapshot["stabilization"] = dict(stabilization) if stabilization else {"method": "none"}
    if include_dom and obs.dom_html is not None:
        snapshot["dom"] = dom_excerpt(obs.dom_html, scrubber if redact else None, dom_chars)
    return _valid_fields(snapshot)


def _valid_fields(snapshot: dict[str, Any]) -> dict[str, Any]:
    """``snapshot`` with its texts outside ``ax_tree`` as valid Unicode (the tree's are
    made so when its digest is taken)."""
    for key in ("url", "title", "trace_id", "ts", "stabilization", "dom"):
        if key in snapshot:
            snapshot[key] = valid_unicode(snapshot[key])
    return snapshot


def _valid_id(node_id: str) -> str:
    """A node ID with each lone surrogate written as its escape (``\\ud800``): IDs that
    differ only there stay different; a surrogate pair becomes its character."""
    joined = node_id.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", joined)


def _encoded(ax_tree: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
    """The tree as the UTF-8 JSON its digest is taken of, and the tree (its lone surrogates
    replaced when it had any)."""
    try:
        return json.dumps(ax_tree, sort_keys=True, ensure_ascii=False).encode(), ax_tree
    except UnicodeEncodeError:
        nodes = [
            {
                **valid_unicode(node),
                "id": _valid_id(node["id"]),
                "children": [_valid_id(child) for child in node["children"]],
            }
            for node in ax_tree["nodes"]
        ]
        clean = {"root_id": ax_tree["root_id"], "nodes": nodes}
        return json.dumps(clean, sort_keys=True, ensure_ascii=False).encode(), clean


def _document(
    obs: Observation, table: CandidateTable, prune: bool, redact: bool
) -> tuple[dict[str, Any], Scrubber]:
    """The snapshot's content (everything but the caller's fields) and the scrubber that
    knows its secrets."""
    scrubber = Scrubber()
    secret: set[int] = set()
    if redact:
        secret = _secrets(table, page_facts(obs, table), scrubber)
        if obs.dom_html is not None:
            dom_secrets(obs.dom_html, scrubber)
    labels = _labels(table)
    kept = _kept(table, prune, labels)
    nodes = _nodes(table, kept, labels, secret, scrubber, prune)
    body, ax_tree = _encoded({"root_id": ROOT_ID, "nodes": nodes})
    snapshot: dict[str, Any] = {
        "snapshot_version": SNAPSHOT_VERSION,
        "snapshot_id": hashlib.sha1(body).hexdigest()[:16],
        "trace_id": None,
        "ts": None,
        "url": scrubber.scrub(obs.url) if obs.url else None,
        "title": scrubber.scrub(_title(table)) or None,
        "viewport": _viewport(obs, table),
        "coord_space": table.coord_space.value if table.coord_space.known else None,
        "stabilization": None,
        "quality": {
            "pruned": prune,
            "redacted": redact,
            "masked_values": scrubber.count,
            "nodes_total": len(table),
            "nodes_kept": len(kept),
        },
        "ax_tree": ax_tree,
    }
    return snapshot, scrubber


def _title(table: CandidateTable) -> str:
    """The name of the first document or window row."""
    for row in range(min(len(table), 3)):
        if table.roles[row] in ("document", "window", "application") and table.names[row]:
            return table.names[row]
    return ""


def _viewport(obs: Observation, table: CandidateTable) -> dict[str, float] | None:
    size = obs.screen_size or table.screen_size
    return None if size is None else {"width": size[0], "height": size[1]}
