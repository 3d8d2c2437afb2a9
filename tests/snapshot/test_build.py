import json
from pathlib import Path

import pytest

from resolver import Observation, resolve
from resolver.capture import ref_from_row
from resolver.errors import InvalidObservationError, ResolutionError
from resolver.replay.captures import folder_captures, load_capture
from resolver.snapshot import ROOT_ID, to_snapshot_v1

CAPTURED = Path(__file__).resolve().parents[2] / "fixtures" / "captured"
TREE = {"id": "d", "role": "document", "name": "Shop", "children": [
    {"id": "n", "role": "navigation", "name": "", "children": [
        {"id": "l1", "role": "link", "name": "Home", "bbox": [0, 0, 40, 20],
         "children": [{"id": "t1", "role": "text", "name": "Home"}]}]},
    {"id": "g", "role": "generic", "name": "", "children": [
        {"id": "row", "role": "row", "name": "", "children": [
            {"id": "c", "role": "cell", "name": "Alice"},
            {"id": "e", "role": "button", "name": "Edit", "bbox": [100, 50, 140, 70],
             "disabled": True}]}]},
    {"id": "pw", "role": "textbox", "name": "Password", "value": "hunter22"},
]}  # fmt: skip


def _snap(tree: object = TREE, **options: object) -> dict:  # type: ignore[type-arg]
    return to_snapshot_v1(Observation(accessibility_tree=tree), ts="2026-01-01T00:00:00Z",
                          **options)  # type: ignore[arg-type]  # fmt: skip


def test_document_fields() -> None:
    snap = _snap(trace_id="t-1", stabilization={"method": "network-idle", "waited_ms": 120})
    assert snap["snapshot_version"] == 1 and snap["trace_id"] == "t-1"
    assert snap["title"] == "Shop" and snap["ts"] == "2026-01-01T00:00:00Z"
    assert snap["stabilization"]["waited_ms"] == 120
    assert snap["quality"]["pruned"] and snap["quality"]["redacted"]
    assert snap["ax_tree"]["root_id"] == ROOT_ID
    assert len(snap["snapshot_id"]) == 16
    json.dumps(snap)  # JSON-ready


def test_snapshot_id_is_a_digest_of_the_content() -> None:
    assert _snap()["snapshot_id"] == _snap(trace_id="other")["snapshot_id"]
    changed = {**TREE, "name": "Shop 2"}
    assert _snap(changed)["snapshot_id"] != _snap()["snapshot_id"]


def test_pruning_keeps_controls_and_the_containers_that_name_them() -> None:
    nodes = {n["id"]: n for n in _snap()["ax_tree"]["nodes"]}
    assert {"l1", "e", "pw", "n", "row", "d"} <= set(nodes)
    assert "t1" not in nodes and "g" not in nodes  # text and wrappers go; a named cell stays
    assert nodes["row"]["name"] == "Alice Edit"  # the row's text label, kept as its name
    assert nodes["e"]["state"] == {"disabled": True}
    assert nodes["pw"]["value"] == "[redacted]"


def test_unpruned_keeps_every_row() -> None:
    snap = _snap(prune=False, redact=False)
    assert len(snap["ax_tree"]["nodes"]) == 1 + 9
    assert "hunter22" in json.dumps(snap)  # redaction off: the check above can fail


@pytest.mark.parametrize("prune", [True, False])
def test_reads_back_with_the_same_container_paths(prune: bool) -> None:
    original = Observation(accessibility_tree=TREE).candidates("a11y")
    back = Observation(accessibility_tree=_snap(prune=prune)).candidates("a11y")
    paths = dict(zip(original.ids, original.containers, strict=True))
    for row, rid in enumerate(back.ids):
        if rid != ROOT_ID and back.roles[row] not in ("row",):
            assert back.containers[row] == paths[rid], rid


def test_captured_pages_resolve_the_same_from_their_snapshots() -> None:
    captures = folder_captures(CAPTURED)
    same = total = 0
    for name in ("login", "settings.v2", "table.v3", "nav.v2"):
        obs = load_capture(name, captures[name]).observation
        back = Observation(accessibility_tree=to_snapshot_v1(obs))
        table = obs.candidates("a11y")
        assert back.candidates("a11y").coord_space == table.coord_space
        for row in range(len(table)):
            if table.roles[row] not in ("button", "link", "textbox", "checkbox", "heading"):
                continue
            ref = ref_from_row(table, row)
            answers = []
            for o in (obs, back):
                try:
                    answers.append(resolve(ref, o, sources=("a11y",)).executor_id)
                except ResolutionError as exc:
                    answers.append(exc.code.value)
            total += 1
            same += answers[0] == answers[1]
    assert total > 50 and same == total


def test_dom_source_and_bad_input() -> None:
    snap = to_snapshot_v1(Observation(dom_html="<button id=b>Go</button>"))
    names = [n["name"] for n in snap["ax_tree"]["nodes"]]
    assert "Go" in names
    with pytest.raises(InvalidObservationError):
        to_snapshot_v1(Observation())
    with pytest.raises(InvalidObservationError):
        to_snapshot_v1(42)


SURROGATES = {"id": "d\ud800", "role": "document", "name": "Shop\udfff", "children": [
    {"id": "a\ud800", "role": "button", "name": "a\ud800b", "bbox": [0, 0, 40, 20]},
    {"id": "a\udfff", "role": "button", "name": "Pay \ud83d\ude00", "bbox": [50, 0, 90, 20]},
    {"id": "t", "role": "textbox", "name": "Note", "value": "x\udc80"},
]}  # fmt: skip


def test_lone_surrogates_are_written_as_valid_utf8_and_read_back() -> None:
    obs = Observation(accessibility_tree=SURROGATES, url="https://shop.test/\ud800")
    snap = to_snapshot_v1(obs, ts="2026-01-01T00:00:00Z", trace_id="t\udfff",
                          stabilization={"method": "idle\ud800"})  # fmt: skip
    data = json.dumps(snap, ensure_ascii=False).encode("utf-8")  # raised before
    nodes = {n["name"]: n for n in snap["ax_tree"]["nodes"]}
    assert set(nodes) >= {"Shop\ufffd", "a\ufffdb", "Pay \U0001f600", "Note"}
    assert nodes["Note"]["value"] == "x\ufffd"
    # IDs keep their lone surrogate as an escape: the two buttons stay two nodes.
    assert nodes["a\ufffdb"]["id"] == "a\\ud800" and nodes["Pay \U0001f600"]["id"] == "a\\udfff"
    assert snap["url"] == "https://shop.test/\ufffd" and snap["trace_id"] == "t\ufffd"
    assert snap["stabilization"] == {"method": "idle\ufffd"}
    back = Observation(accessibility_tree=json.loads(data.decode("utf-8")))
    table = back.candidates("a11y")
    assert table.names[1:] == ("Shop\ufffd", "a\ufffdb", "Pay \U0001f600", "Note")
    assert resolve({"role": "button", "name": "Pay 😀"}, back).executor_id == "a11y:a\\udfff"
    # The same tree gives the same snapshot_id (it is a digest of what is written).
    assert to_snapshot_v1(obs, ts="x")["snapshot_id"] == snap["snapshot_id"]


def test_valid_text_is_written_as_it_is() -> None:
    tree = {"id": "b", "role": "button", "name": "Café 😀", "bbox": [0, 0, 5, 5]}
    snap = to_snapshot_v1(Observation(accessibility_tree=tree), ts="x")
    assert [n["name"] for n in snap["ax_tree"]["nodes"]] == ["", "Café 😀"]
    assert snap["ax_tree"]["nodes"][1]["id"] == "b"
