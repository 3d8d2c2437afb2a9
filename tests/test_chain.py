import json
import random
from pathlib import Path
from typing import Any

import pytest
from desktop_trees import notepad, uia_node
from test_matcher import random_ref, random_table

from benchmarks.synth import TARGET_ROLES, cdp_tree
from resolver import (
    AmbiguousMatchError,
    ConfigError,
    ElementNotFoundError,
    InvalidObservationError,
    InvalidReferenceError,
    MatchConfig,
    Observation,
    Resolution,
    ResolutionError,
    SemanticElementRef,
    resolve,
    resolve_element,
    resolve_many,
)
from resolver.capture import ref_from_row
from resolver.replay import read_capture
from resolver.table import CandidateTable, TableBuilder

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "captured"


def dialog() -> dict[str, object]:
    return {
        "id": "dlg", "role": "dialog", "name": "Settings", "bbox": [0, 0, 600, 500],
        "children": [
            {"id": "g1", "role": "group", "name": "Display", "bbox": [10, 10, 590, 200],
             "children": [
                 {"id": "ok1", "role": "button", "name": "OK", "bbox": [500, 160, 570, 190],
                  "children": [{"id": "ok1t", "role": "StaticText", "name": "OK",
                                "bbox": [510, 165, 560, 185]}]},
                 {"id": "c1", "role": "button", "name": "Cancel", "bbox": [420, 160, 490, 190]},
             ]},
            {"id": "g2", "role": "group", "name": "Network", "bbox": [10, 250, 590, 450],
             "children": [
                 {"id": "ok2", "role": "button", "name": "OK", "bbox": [500, 400, 570, 430]},
                 {"id": "c2", "role": "button", "name": "Cancel", "bbox": [420, 400, 490, 430]},
             ]},
            {"id": "h", "role": "heading", "name": "Apply", "bbox": [10, 460, 200, 490]},
        ],
    }  # fmt: skip


def obs() -> Observation:
    return Observation(accessibility_tree=dialog(), screen_size=(600, 500))


def test_duplicate_ok_by_container() -> None:
    ref = SemanticElementRef(role="button", name="OK", container_path=("Settings", "Network"))
    res = resolve(ref, obs())
    assert res.executor_id == "a11y:ok2"
    assert res.source == "a11y"
    assert res.margin >= 0.06
    assert res.point == (535.0, 415.0)
    assert res.trace[-1].status == "accepted"


def test_duplicate_ok_by_bbox() -> None:
    ref = SemanticElementRef(role="button", name="OK", bbox=(498, 158, 568, 188))
    assert resolve_element(ref, obs()) == "a11y:ok1"


def test_duplicate_ok_without_evidence_is_ambiguous() -> None:
    with pytest.raises(AmbiguousMatchError) as info:
        resolve(SemanticElementRef(role="button", name="OK"), obs())
    err = info.value
    assert err.code.value == "AMBIGUOUS"
    ids = {c.id for c in err.evidence.candidates}
    assert {"ok1", "ok2"} <= ids
    assert err.evidence.trace[0].status == "ambiguous"
    assert err.evidence.rule == err.evidence.trace[0].rule == "ambiguous.margin"


def test_button_and_its_label_are_one_target() -> None:
    # ok1 and its StaticText child overlap: not rivals, so the margin is over ok2.
    ref = SemanticElementRef(name="OK", bbox=(500, 160, 570, 190))
    assert resolve_element(ref, obs()) == "a11y:ok1"


def test_removed_element_is_not_found() -> None:
    ref = SemanticElementRef(role="button", name="Reset", container_path=("Settings", "Display"))
    with pytest.raises(ElementNotFoundError) as info:
        resolve(ref, obs())
    assert info.value.evidence.candidates  # nearest candidates are reported


def test_heading_does_not_stand_in_for_a_button() -> None:
    with pytest.raises(ElementNotFoundError):
        resolve(SemanticElementRef(role="button", name="Apply"), obs())


def test_link_may_resolve_to_a_button_with_the_same_name() -> None:
    ref = SemanticElementRef(role="link", name="Cancel", container_path=("Display",))
    assert resolve_element(ref, obs()) == "a11y:c1"


def test_ref_as_dict_and_json() -> None:
    data = {"role": "button", "name": "OK", "container_path": ["Display"]}
    assert resolve_element(data, obs()) == "a11y:ok1"
    assert resolve_element(json.dumps(data), {"accessibility_tree": dialog()}) == "a11y:ok1"


def test_options_override_and_validate() -> None:
    ref = SemanticElementRef(role="button", name="ok", container_path=("Network",))
    assert resolve_element(ref, obs()) == "a11y:ok2"
    with pytest.raises(ElementNotFoundError):
        resolve(ref, obs(), threshold=0.999)
    with pytest.raises(ConfigError):
        resolve(ref, obs(), no_such_option=1)
    with pytest.raises(ConfigError):
        resolve(ref, obs(), threshold=2.0)
    with pytest.raises(ConfigError, match="got dict"):  # an option, not the reference
        resolve(ref, obs(), config={"threshold": 0.5})  # type: ignore[arg-type]
    with pytest.raises(ConfigError):
        resolve(ref, obs(), coords_fallback="sometimes")  # type: ignore[arg-type]
    with pytest.raises(InvalidReferenceError):
        resolve(ref, obs(), sources=("a11y", "magic"))
    for not_names in (5, None, {"a11y": 1}):  # (raw TypeErrors, or a dict's keys, before)
        with pytest.raises(InvalidReferenceError, match="source names"):
            resolve(ref, obs(), sources=not_names)  # type: ignore[arg-type]
    with pytest.raises(InvalidReferenceError):
        resolve(42, obs())  # type: ignore[arg-type]
    cfg = MatchConfig(min_margin=0.5)
    with pytest.raises(AmbiguousMatchError):
        resolve(
            SemanticElementRef(role="button", name="OK", bbox=(0, 300, 10, 310)), obs(), config=cfg
        )


def test_coords_only_when_nothing_could_look() -> None:
    ref = SemanticElementRef(name="OK", bbox=(100, 100, 140, 120), screen_size=(800, 600))
    res = resolve(ref, Observation(screen_size=(1600, 1200)))
    assert res.source == "coords"
    assert res.executor_id == "coords:240,220"
    assert [t.status for t in res.trace] == ["absent", "absent", "absent", "accepted"]
    # an a11y tree that does not contain it: no blind click
    with pytest.raises(ElementNotFoundError) as info:
        resolve(SemanticElementRef(name="Gone", bbox=(1, 1, 5, 5)), obs())
    assert info.value.evidence.trace[-1].status == "skipped"
    assert info.value.evidence.trace[-1].rule == "refuse.coords_after_look"
    forced = resolve(
        SemanticElementRef(name="Gone", bbox=(1, 1, 5, 5)), obs(), coords_fallback="always"
    )
    assert forced.executor_id == "coords:3,3"


def test_nothing_to_look_at() -> None:
    with pytest.raises(ElementNotFoundError, match="no source could look"):
        resolve(SemanticElementRef(name="OK"), Observation())


def test_bad_observation_raises_typed() -> None:
    with pytest.raises(InvalidObservationError):
        resolve(SemanticElementRef(name="OK"), Observation(accessibility_tree="{oops"))


def test_resolve_many_returns_errors_in_place() -> None:
    refs = [
        SemanticElementRef(role="button", name="OK", container_path=("Network",)),
        {"role": "button", "name": "Nope"},
        {"bbox": [3, 2, 1, 0]},
        SemanticElementRef(role="button", name="Cancel", container_path=("Display",)),
    ]
    out = resolve_many(refs, obs())
    assert isinstance(out[0], Resolution) and out[0].executor_id == "a11y:ok2"
    assert isinstance(out[1], ElementNotFoundError)
    assert isinstance(out[2], InvalidReferenceError)
    assert isinstance(out[3], Resolution) and out[3].executor_id == "a11y:c1"


def test_resolve_many_pauses_the_collector_and_leaves_it_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A batch makes thousands of short-lived objects: the cyclic collector is paused while
    # the references are judged, and left enabled (or disabled) as the caller had it.
    import gc

    import resolver.chain as chain

    seen: list[bool] = []
    judged = chain.decide_many

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return judged(*args, **kwargs)

    monkeypatch.setattr(chain, "decide_many", spy)
    refs = [SemanticElementRef(role="button", name="OK", container_path=("Network",))]
    assert gc.isenabled()
    assert isinstance(resolve_many(refs, obs())[0], Resolution)
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        resolve_many(refs, obs())
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(InvalidReferenceError):
        resolve_many(SemanticElementRef(name="OK"), obs())
    assert gc.isenabled()


@pytest.mark.parametrize(
    "refs",
    [None, 5, "OK", b"{}", {"role": "button", "name": "OK"},
     SemanticElementRef(role="button", name="OK")],
    ids=["none", "int", "text", "bytes", "mapping", "one ref"],
)  # fmt: skip
def test_resolve_many_refuses_a_single_reference_or_no_list(refs: object) -> None:
    # A single reference would be taken apart into its characters, keys or fields.
    with pytest.raises(InvalidReferenceError, match="refs must be an iterable"):
        resolve_many(refs, obs())  # type: ignore[arg-type]
    listed = iter([{"role": "button", "name": "OK", "container_path": ["Network"]}])
    assert [type(r) for r in resolve_many(listed, obs())] == [Resolution]


def test_resolution_serialises() -> None:
    res = resolve(SemanticElementRef(role="button", name="OK", container_path=("Network",)), obs())
    data = json.loads(json.dumps(res.to_dict()))
    assert data["executor_id"] == "a11y:ok2"
    assert data["alternatives"]
    assert data["trace"][0]["source"] == "a11y"


def dirty_cdp() -> dict[str, object]:
    """A CDP tree whose boxes reach the table as given: one not finite, one inverted, and a
    role no table knows."""

    def node(i: int, role: str, name: str, box: list[float], **extra: object) -> object:
        role_field = {"type": "role", "value": role}
        name_field = {"type": "computedString", "value": name}
        return {"nodeId": str(i), "role": role_field, "name": name_field, "bbox": box, **extra}

    return {"nodes": [
        node(1, "RootWebArea", "Shop", [0, 0, 600, 400], childIds=["2", "3", "4", "5"]),
        node(2, "button", "Buy", [10, 10, 90, 40], parentId="1"),
        node(3, "button", "Sell", [10, float("nan"), 90, 90], parentId="1"),
        node(4, "link", "Help", [200, 10, 100, 40], parentId="1"),
        node(5, "frobnicator", "Knob", [300, 10, 340, 40], parentId="1"),
    ]}  # fmt: skip


DIRTY = {"box_not_finite": 1, "box_inverted": 1, "role_unknown": 1}


def test_trace_entries_carry_the_table_diagnostics() -> None:
    observation = Observation(accessibility_tree=dirty_cdp())
    res = resolve({"role": "button", "name": "Buy"}, observation)
    assert res.executor_id == "a11y:2" and res.trace[0].diagnostics == DIRTY
    assert json.loads(json.dumps(res.to_dict()))["trace"][0]["diagnostics"] == DIRTY
    with pytest.raises(ElementNotFoundError) as info:
        resolve({"role": "button", "name": "Refund"}, observation, sources=("a11y",))
    assert info.value.evidence.trace[0].diagnostics == DIRTY
    assert info.value.to_dict()["trace"][0]["diagnostics"] == DIRTY
    many = resolve_many([{"role": "button", "name": "Buy"}, {"name": "Refund"}], observation)
    assert [r.trace[0].diagnostics if isinstance(r, Resolution) else
            r.evidence.trace[0].diagnostics for r in many] == [DIRTY, DIRTY]  # fmt: skip
    clean = resolve(SemanticElementRef(role="button", name="OK", container_path=("Network",)),
                    obs())  # fmt: skip
    assert [t.diagnostics for t in clean.trace] == [{}]


def test_screen_size_rescales_bbox() -> None:
    # Recorded at half the size: the box maps onto ok2 once rescaled.
    ref = SemanticElementRef(role="button", name="OK", bbox=(250, 200, 285, 215),
                             screen_size=(300, 250))  # fmt: skip
    assert resolve_element(ref, obs()) == "a11y:ok2"


def test_verified_selector_is_used_first() -> None:
    builder = TableBuilder("dom", "fake", executor_prefix="xpath:", id_columns=("xpath",))
    builder.add("/html/body/button[1]", raw_role="button", name="OK", xpath="/html/body/button[1]")
    builder.add("/html/body/button[2]", raw_role="button", name="OK", xpath="/html/body/button[2]")
    table = builder.build()
    rows = {"#second": [1], "button": [0, 1]}
    object.__setattr__(table, "selector_resolver", lambda kind, sel: rows.get(sel, []))
    observation = Observation(dom_html="<html></html>")
    observation._tables["dom"] = table
    res = resolve(SemanticElementRef(role="button", name="OK", css_selector="#second"), observation,
                  sources=("dom",))  # fmt: skip
    assert res.executor_id == "css:#second"
    assert res.rule == res.trace[-1].rule == "accept.verified_selector"
    # not unique: falls back to semantic matching, which finds two equal OKs
    with pytest.raises(AmbiguousMatchError):
        resolve(SemanticElementRef(role="button", name="OK", css_selector="button"), observation,
                sources=("dom",))  # fmt: skip
    # role disagrees: not trusted
    with pytest.raises(AmbiguousMatchError):
        resolve(SemanticElementRef(role="heading", name="OK", css_selector="#second"),
                observation, sources=("dom",), threshold=0.1)  # fmt: skip


# -- resolve_many gives what resolve gives, one reference at a time ---------------------------


def _close(a: object, b: object, where: str) -> None:
    """Equal structures; floats equal to 1e-9."""
    if isinstance(a, float) and isinstance(b, float):
        assert a == pytest.approx(b, abs=1e-9, nan_ok=True), where
    elif isinstance(a, dict) and isinstance(b, dict):
        assert list(a) == list(b), where
        for key in a:
            _close(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def assert_same_outcomes(
    many: list[Resolution | ResolutionError], single: list[Resolution | ResolutionError]
) -> None:
    """Same order, same answer or error (type, code, message, evidence), same numbers."""
    assert len(many) == len(single)
    for i, (got, want) in enumerate(zip(many, single, strict=True)):
        assert type(got) is type(want), (i, got, want)
        if isinstance(want, ResolutionError):
            assert isinstance(got, ResolutionError)
            assert got.code == want.code, i
        _close(got.to_dict(), want.to_dict(), f"ref {i}")


def one_at_a_time(
    refs: list[object], observation: Observation, **options: object
) -> list[Resolution | ResolutionError]:
    out: list[Resolution | ResolutionError] = []
    for ref in refs:
        try:
            out.append(resolve(ref, observation, **options))  # type: ignore[arg-type]
        except ResolutionError as exc:
            out.append(exc)
    return out


def variants(rng: random.Random, table: CandidateTable, rows: list[int]) -> list[object]:
    """References recorded from ``rows`` as a recorder would, and changed the ways a replay
    meets them: moved, renamed, stripped of evidence, gone; plus malformed ones."""
    refs: list[object] = []
    for row in rows:
        ref = ref_from_row(table, row)
        refs.append(ref)
        change = rng.randrange(9)
        if change == 0 and ref.bbox is not None:
            dx, dy = rng.uniform(-30, 30), rng.uniform(-30, 30)
            box = (ref.bbox[0] + dx, ref.bbox[1] + dy, ref.bbox[2] + dx, ref.bbox[3] + dy)
            refs.append(ref.model_copy(update={"bbox": box}))
        elif change == 1 and ref.name:
            renamed = rng.choice([ref.name.upper(), ref.name + " now", ref.name[:-1] + "7"])
            refs.append(ref.model_copy(update={"name": renamed}))
        elif change == 2:
            refs.append(ref.model_copy(update={"name": None}))
        elif change == 3:
            refs.append(ref.model_copy(update={"container_path": (), "occurrence": None}))
        elif change == 4:
            refs.append(SemanticElementRef(role=ref.role, name=ref.name or "OK"))
        elif change == 5:
            refs.append(ref.model_copy(update={"container_path": (*ref.container_path, "Gone")}))
        elif change == 6:
            refs.append(ref.model_copy(update={"role": "heading", "anchors": ()}))
        elif change == 7:
            refs.append(ref.model_dump(mode="json"))
        else:
            refs.append(ref.model_copy(update={"bbox": None, "screen_size": (640, 400)}))
    refs += [
        {"role": "button", "name": "Nothing like this"},
        {"bbox": [3, 2, 1, 0]},
        "not json",
        SemanticElementRef(name="Edit"),
        SemanticElementRef(bbox=(10, 10, 50, 30)),
    ]
    rng.shuffle(refs)
    return refs


OPTIONS: list[dict[str, object]] = [
    {},
    {"threshold": 0.5, "min_margin": 0.1},
    {"sources": ("a11y",), "coords_fallback": "always", "w_bbox": 0.0},
    {"config": MatchConfig(w_container=0.4, top_k=2), "coords_fallback": "never"},
]


@pytest.mark.parametrize("seed", range(4))
def test_resolve_many_is_resolve_on_synthetic_pages(seed: int) -> None:
    rng = random.Random(seed)
    observation = Observation(accessibility_tree=cdp_tree(rng.choice([600, 1500, 3000]), seed))
    table = observation.candidates("a11y")
    targets = [i for i, role in enumerate(table.roles) if role in TARGET_ROLES and table.names[i]]
    refs = variants(rng, table, rng.sample(targets, min(40, len(targets))))
    # the same ones again: look-alikes and repeated names make the batch share most work
    refs += refs[:10]
    options = OPTIONS[seed % len(OPTIONS)]
    assert_same_outcomes(resolve_many(refs, observation, **options),  # type: ignore[arg-type]
                         one_at_a_time(refs, observation, **options))  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_resolve_many_is_resolve_on_random_tables(seed: int) -> None:
    # Random tables carry what synthetic pages lack: states, platform IDs, xpaths, flat
    # and structured containers, other coordinate spaces, rows without boxes.
    rng = random.Random(seed)
    table = random_table(rng, rng.choice([1, 8, 60, 400]))
    observation = Observation(accessibility_tree={"id": "r", "role": "group"})
    observation._tables["a11y"] = table
    refs: list[object] = [random_ref(rng, table) for _ in range(30)]
    refs += variants(rng, table, [rng.randrange(len(table)) for _ in range(10)])
    for options in OPTIONS:
        assert_same_outcomes(resolve_many(refs, observation, **options),  # type: ignore[arg-type]
                             one_at_a_time(refs, observation, **options))  # fmt: skip


@pytest.mark.parametrize("page", ["login", "table", "nav.v2"])
def test_resolve_many_is_resolve_on_captured_pages(page: str) -> None:
    # Both sources of a real capture, the DOM with its recorded selectors and IDs.
    capture = read_capture(FIXTURES / page)
    observation = capture.observation
    rng = random.Random(page)
    refs: list[object] = []
    for source in ("a11y", "dom"):
        table = observation.candidates(source)
        refs += variants(rng, table, list(range(len(table))))
    assert_same_outcomes(resolve_many(refs, observation), one_at_a_time(refs, observation))
    only_dom = {"sources": ("dom", "coords")}
    assert_same_outcomes(resolve_many(refs, observation, **only_dom),  # type: ignore[arg-type]
                         one_at_a_time(refs, observation, **only_dom))  # fmt: skip


def test_outcome_comparison_can_fail() -> None:
    # The comparison above must be able to tell outcomes apart.
    refs: list[object] = [
        SemanticElementRef(role="button", name="OK", container_path=("Network",)),
        SemanticElementRef(role="button", name="Cancel", bbox=(420, 160, 490, 190)),
    ]
    single = one_at_a_time(refs, obs())
    with pytest.raises(AssertionError):
        assert_same_outcomes(resolve_many(refs, obs(), w_bbox=0.3), single)
    with pytest.raises(AssertionError):
        assert_same_outcomes(resolve_many(refs[::-1], obs()), single)
    with pytest.raises(AssertionError):
        assert_same_outcomes(resolve_many(refs, obs(), min_margin=0.9), single)


# -- a weaker source does not overrule a stronger one's evidence of absence ------------------

ALICE, BOB = ("Alice", "alice@example.com"), ("Bob", "bob@example.com")
CAROL = ("Carol", "carol@example.com")
CAROLS_ROW_DOM = (
    "<html><head><title>Users</title></head><body><table><tr><td>Carol</td>"
    "<td>carol@example.com</td><td><button>Delete</button></td></tr></table></body></html>"
)
"""A document in which the DOM source alone answers Bob's "Delete" with Carol's."""
BOBS_DELETE = SemanticElementRef(
    role="button", name="Delete", bbox=(420, 90, 480, 118), screen_size=(1280, 800),
    container_path=("Users", "Bob bob@example.com Delete"),
)  # fmt: skip


def users_tree(*rows: tuple[str, str], control: str = "button") -> dict[str, object]:
    """An accessibility tree of users, each row named by its texts, each with a "Delete"
    ``control``."""
    kids = []
    for k, (name, email) in enumerate(rows):
        top = 60 + 30 * k
        kids.append({
            "id": f"r{k}", "role": "row", "name": f"{name} {email} Delete",
            "bbox": [8, top, 600, top + 28], "children": [
                {"id": f"n{k}", "role": "cell", "name": name, "bbox": [8, top, 100, top + 28]},
                {"id": f"e{k}", "role": "cell", "name": email, "bbox": [100, top, 400, top + 28]},
                {"id": f"d{k}", "role": control, "name": "Delete",
                 "bbox": [420, top, 480, top + 28]},
            ],
        })  # fmt: skip
    table = {"id": "t", "role": "table", "name": "", "bbox": [8, 40, 600, 400], "children": kids}
    return {"id": "doc", "role": "RootWebArea", "name": "Users", "bbox": [0, 0, 1280, 800],
            "children": [table]}  # fmt: skip


def users(*rows: tuple[str, str], control: str = "button") -> Observation:
    """The users' tree with :data:`CAROLS_ROW_DOM` as its document."""
    tree = users_tree(*rows, control=control)
    return Observation(accessibility_tree=tree, dom_html=CAROLS_ROW_DOM, screen_size=(1280, 800))


def test_a_removed_rows_button_is_not_answered_by_a_weaker_source() -> None:
    # Bob's row is there: a11y answers. Removed: a11y refuses, the record is gone ...
    assert resolve(BOBS_DELETE, users(ALICE, BOB, CAROL)).executor_id == "a11y:d1"
    removed = users(ALICE, CAROL)
    with pytest.raises(ElementNotFoundError) as info:
        resolve(BOBS_DELETE, removed, sources=("a11y",))
    assert info.value.evidence.rule == "refuse.record_gone"
    # ... and the DOM alone would answer Carol's button,
    wrong = resolve(BOBS_DELETE, removed, sources=("dom",))
    assert wrong.executor_id.endswith("tr[1]/td[3]/button[1]")
    # but after a11y's evidence it is not asked, nor vision, nor the coordinates.
    for policy in ("unobserved", "always"):
        with pytest.raises(ElementNotFoundError) as info:
            resolve(BOBS_DELETE, removed, coords_fallback=policy)  # type: ignore[arg-type]
        evidence = info.value.evidence
        assert evidence.rule == "refuse.record_gone"
        assert [(t.source, t.status, t.rule) for t in evidence.trace] == [
            ("a11y", "not_found", "refuse.record_gone"),
            ("dom", "skipped", "refuse.absent_upstream"),
            ("vision", "skipped", "refuse.absent_upstream"),
            ("coords", "skipped", "refuse.absent_upstream"),
        ]
        assert (
            "a11y" in evidence.trace[1].reason and "refuse.record_gone" in evidence.trace[1].reason
        )
        assert evidence.candidates and evidence.candidates[0].executor_id == "a11y:d1"


def test_a_source_without_input_passes_to_the_dom() -> None:
    observation = Observation(dom_html=CAROLS_ROW_DOM, screen_size=(1280, 800))
    res = resolve(BOBS_DELETE, observation)
    assert res.source == "dom"
    assert [(t.source, t.status) for t in res.trace] == [("a11y", "absent"), ("dom", "accepted")]


def test_a_source_without_a_row_of_the_role_passes_to_the_dom() -> None:
    # The tree exposes the controls as links: a11y's refusal says nothing of the buttons.
    observation = users(ALICE, CAROL, control="link")
    res = resolve(BOBS_DELETE, observation)
    assert res.source == "dom"
    assert res.trace[0].rule == "refuse.record_gone" and res.trace[1].status == "accepted"


def test_a_refusal_for_lack_of_evidence_passes_to_the_dom() -> None:
    tree = {"id": "doc", "role": "RootWebArea", "name": "Users",
            "children": [{"id": "h", "role": "heading", "name": "Nothing here"}]}  # fmt: skip
    observation = Observation(accessibility_tree=tree, dom_html=CAROLS_ROW_DOM)
    res = resolve(BOBS_DELETE, observation)
    assert res.source == "dom"
    assert res.trace[0].rule == "refuse.threshold" and res.trace[1].status == "accepted"


TWINS_TREE = {"id": "doc", "role": "RootWebArea", "name": "Form", "children": [
    {"id": "a", "role": "button", "name": "OK", "bbox": [10, 10, 60, 30]},
    {"id": "b", "role": "button", "name": "OK", "bbox": [10, 50, 60, 70]},
]}  # fmt: skip
TWINS_DOM = '<html><body><button id="a">OK</button><button id="b">OK</button></body></html>'


def test_indistinguishable_twins_end_the_chain_unless_a_selector_may_tell_them_apart() -> None:
    observation = Observation(accessibility_tree=TWINS_TREE, dom_html=TWINS_DOM)
    with pytest.raises(AmbiguousMatchError) as info:
        resolve(SemanticElementRef(role="button", name="OK"), observation)
    evidence = info.value.evidence
    assert evidence.rule == "ambiguous.margin"
    assert [t.status for t in evidence.trace] == ["ambiguous", "skipped", "skipped", "skipped"]
    assert {t.rule for t in evidence.trace[1:]} == {"refuse.absent_upstream"}
    # A recorded selector is something the DOM may tell them apart by: it is asked.
    res = resolve(SemanticElementRef(role="button", name="OK", css_selector="#b"), observation)
    assert res.executor_id == "css:#b" and res.trace[0].status == "ambiguous"


MOVED_SEARCH_TREE = {"id": "doc", "role": "RootWebArea", "name": "News",
                     "bbox": [0, 0, 1280, 800], "children": [
    {"id": "hd", "role": "banner", "name": "Masthead", "bbox": [0, 0, 1280, 60], "children": [
        {"id": "w", "role": "link", "name": "World", "bbox": [10, 10, 60, 30]}]},
    {"id": "rel", "role": "region", "name": "Related", "bbox": [0, 100, 1280, 200], "children": [
        {"id": "s", "role": "button", "name": "Search", "bbox": [1100, 120, 1180, 150]}]},
]}  # fmt: skip
MOVED_SEARCH_DOM = (
    '<html><body><header><a href="/w">World</a></header>'
    '<div><button class="btn" type="submit">Search</button></div></body></html>'
)
MASTHEAD_SEARCH = SemanticElementRef(
    role="button", name="Search", bbox=(1100, 20, 1180, 50), screen_size=(1280, 800),
    container_path=("News", "Masthead"), tag="button", classes=("btn",),
)  # fmt: skip


def test_a_weaker_sources_score_does_not_overrule_a_stronger_ones_no_match() -> None:
    # The masthead's "Search" went; a namesake in another region is all a11y has of the role,
    # and its containers and place are not the recorded ones: under the threshold.
    observation = Observation(
        accessibility_tree=MOVED_SEARCH_TREE, dom_html=MOVED_SEARCH_DOM, screen_size=(1280, 800)
    )
    with pytest.raises(ElementNotFoundError) as info:
        resolve(MASTHEAD_SEARCH, observation, sources=("a11y",))
    assert info.value.evidence.rule == "refuse.threshold"
    # The DOM alone, blind to the containers, takes it on tag, class and name ...
    alone = resolve(MASTHEAD_SEARCH, observation, sources=("dom",))
    assert alone.trace[-1].rule == "accept.score"
    # ... but after a11y's judgement its score alone does not answer (nor, by default, the
    # coordinates: sources looked).
    with pytest.raises(ElementNotFoundError) as info:
        resolve(MASTHEAD_SEARCH, observation)
    evidence = info.value.evidence
    assert [(t.source, t.status, t.rule) for t in evidence.trace][:2] == [
        ("a11y", "not_found", "refuse.threshold"),
        ("dom", "not_found", "refuse.scored_downstream"),
    ]
    assert evidence.trace[1].best is not None
    assert evidence.trace[1].best.executor_id == alone.executor_id
    assert alone.executor_id in {c.executor_id for c in evidence.candidates}
    assert evidence.trace[-1].source == "coords" and evidence.trace[-1].status == "skipped"
    # A recorded selector that selects the element is what the DOM may answer by.
    selected = MASTHEAD_SEARCH.model_copy(update={"css_selector": "div > button.btn"})
    res = resolve(selected, observation)
    assert res.source == "dom" and res.executor_id.startswith("css:")
    assert res.trace[0].rule == "refuse.threshold"


def test_a_weaker_source_answers_when_the_stronger_had_no_row_of_the_role() -> None:
    tree = {**MOVED_SEARCH_TREE, "children": MOVED_SEARCH_TREE["children"][:1]}
    observation = Observation(accessibility_tree=tree, dom_html=MOVED_SEARCH_DOM)
    res = resolve(MASTHEAD_SEARCH, observation)
    assert res.source == "dom" and res.trace[-1].rule == "accept.score"


def test_resolve_many_stops_where_resolve_stops() -> None:
    refs: list[object] = [
        BOBS_DELETE,
        BOBS_DELETE.model_copy(
            update={"container_path": ("Users", "Alice alice@example.com Delete")}
        ),
        BOBS_DELETE.model_copy(update={"role": "link"}),
        SemanticElementRef(role="button", name="Delete"),
        SemanticElementRef(role="button", name="Nothing like it"),
        SemanticElementRef(role="button", name="Delete", xpath="/html[1]/body[1]/table[1]"),
    ]
    pages = [
        users(ALICE, CAROL), users(ALICE, BOB, CAROL), users(ALICE, CAROL, control="link"),
        Observation(accessibility_tree=TWINS_TREE, dom_html=TWINS_DOM),
        Observation(accessibility_tree=MOVED_SEARCH_TREE, dom_html=MOVED_SEARCH_DOM),
    ]  # fmt: skip
    refs.append(MASTHEAD_SEARCH)
    for observation in pages:
        for options in ({}, {"coords_fallback": "always"}, {"sources": ("a11y", "coords")}):
            single = one_at_a_time(refs, observation, **options)
            assert_same_outcomes(resolve_many(refs, observation, **options), single)  # type: ignore[arg-type]
    many = resolve_many(refs, users(ALICE, CAROL))
    assert (
        isinstance(many[0], ElementNotFoundError) and many[0].evidence.rule == "refuse.record_gone"
    )


def _blank_png(width: int, height: int) -> bytes:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    ok, encoded = cv2.imencode(".png", np.full((height, width, 3), 255, dtype=np.uint8))
    assert ok
    return bytes(encoded.tobytes())


@pytest.mark.parametrize(
    ("bbox", "screen", "recorded_on"),
    [
        ((300, 1200, 370, 1230), None, None),  # below the fold of a 1280x800 screenshot
        ((-200, 100, -120, 130), None, None),  # scrolled off to the left
        ((300, 700, 370, 730), (1280, 800), (1280, 600)),  # fits 1280x800, not 1280x600
        ((600, 1500, 700, 1540), (640, 400), (1280, 800)),  # screen at half the pixel size
    ],
)
def test_vision_refuses_a_reference_recorded_off_its_screen(
    bbox: tuple[int, int, int, int],
    screen: tuple[int, int] | None,
    recorded_on: tuple[int, int] | None,
) -> None:
    ref = {"role": "button", "name": "OK", "bbox": bbox}
    if recorded_on is not None:
        ref["screen_size"] = recorded_on
    observation = Observation(screenshot=_blank_png(1280, 800), screen_size=screen)
    for policy in ("unobserved", "always"):
        with pytest.raises(ElementNotFoundError) as info:
            resolve(ref, observation, sources=("vision", "coords"), coords_fallback=policy)  # type: ignore[arg-type]
        evidence = info.value.evidence
        assert evidence.rule == "refuse.off_screen"
        width, height = screen or (1280, 800)
        assert evidence.details["visible_region"] == (0.0, 0.0, width, height)
        assert "not visible" in info.value.message
        assert evidence.trace[0].rule == "refuse.off_screen"
    # Inside the screen, the same reference is read (and, on a blank screen, not found).
    inside = {"role": "button", "name": "OK", "bbox": (300, 100, 370, 130)}
    with pytest.raises(ElementNotFoundError) as info:
        resolve(inside, observation, sources=("vision",))
    assert info.value.evidence.rule != "refuse.off_screen"


def test_sources_that_see_off_screen_elements_have_no_frame() -> None:
    observation = Observation(dom_html=CAROLS_ROW_DOM, screen_size=(1280, 800))
    assert observation.visible_frame("dom") is None
    assert observation.visible_frame("a11y") is None


def test_the_point_of_an_answer_partly_under_a_dialog_is_beside_it() -> None:
    # A desktop's message box over the middle of Notepad's text field: clicking the field's
    # centre would press the box's "Yes"; the point goes to the largest part beside it.
    observation = Observation(accessibility_tree=notepad())
    ref = SemanticElementRef(role="EditControl", name="Text Editor", bbox=(0, 50, 800, 600))
    found = resolve(ref, observation)
    assert found.executor_id == "a11y:0.0" and found.point == (400.0, 480.0)
    many = resolve_many([ref], observation)
    assert isinstance(many[0], Resolution) and many[0].point == (400.0, 480.0)
    # A field wholly under the box is refused, and its recorded place is not clicked either.
    small = SemanticElementRef(role="EditControl", name="Find what", bbox=(350, 250, 550, 270))
    covered = notepad(field=("Find what", [350, 250, 550, 270]))
    with pytest.raises(ElementNotFoundError) as refused:
        resolve(small, Observation(accessibility_tree=covered), coords_fallback="always")
    rules = [entry.rule for entry in refused.value.evidence.trace]
    assert rules[0] == "refuse.under_dialog" and rules[-1] == "refuse.absent_upstream"


def test_an_answer_off_a_desktops_screen_has_no_point() -> None:
    # A list item scrolled out of view: UIA gives the box it would have (here below the
    # list, where another control is drawn); its ID is answered, with no point to click.
    names = [
        "alpha.txt",
        "beta.doc",
        "gamma.pdf",
        "delta.xls",
        "eps.png",
        "zeta.md",
        "eta.csv",
        "theta.py",
        "iota.rs",
        "kappa.go",
        "lambda.c",
        "mu.h",
        "nu.js",
    ]
    items = [
        uia_node("ListItemControl", name, [10, 60 + 20 * i, 300, 80 + 20 * i],
                 IsOffscreen=i >= 10)
        for i, name in enumerate(names)
    ]  # fmt: skip
    tree = uia_node("WindowControl", "Files", [0, 0, 400, 320],
                    uia_node("ListControl", "Files list", [10, 60, 300, 260], *items))  # fmt: skip
    observation = Observation(accessibility_tree=tree)
    hidden = resolve(SemanticElementRef(role="ListItemControl", name="mu.h"), observation)
    assert hidden.executor_id == "a11y:0.0.11" and hidden.point is None
    shown = resolve(SemanticElementRef(role="ListItemControl", name="delta.xls"), observation)
    assert shown.point == (155.0, 130.0)
