"""Tests of the Similo benchmark: properties, conversion, pair join, split, report.

Run with ``python -m pytest benchmarks/similo -q`` (not among the default test paths).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.similo import convert, data
from benchmarks.similo.baseline import similo_best, similo_score
from benchmarks.similo.convert import name_of, observation_tree, ref_of, role_of
from benchmarks.similo.data import (
    HELDOUT_APPS,
    TUNE_APPS,
    Widget,
    load_app,
    parse_properties,
    split_of,
    split_rule,
)
from benchmarks.similo.run import main
from resolver import Observation, resolve
from resolver.roles import canonical_role


def _w(**props: str) -> Widget:
    return Widget("w.properties", props)


def _write(path: Path, props: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{k}={v}\n" for k, v in props.items()), encoding="utf-8")


# --- properties ------------------------------------------------------------------------------


def test_properties_escapes_and_comments() -> None:
    text = (
        "# a comment\n"
        "! another comment\n"
        "\n"
        "   \n"
        "xpath=/html[1]/body[1]\n"
        "a\\:b=c\\=d\n"
        "back=one\\\\two\n"
        "uni=caf\\u00e9 \\u0041\n"
        "tabs=x\\ty\n"
        "colon: value\n"
        "spaced   =   padded  \n"
        "cont=first \\\n"
        "    second\n"
        "text=old\n"
        "text=new\n"
    )
    props = parse_properties(text)
    assert props["xpath"] == "/html[1]/body[1]"
    assert props["a:b"] == "c=d"
    assert props["back"] == "one\\two"
    assert props["uni"] == "café A"
    assert props["tabs"] == "x\ty"
    assert props["colon"] == "value"
    assert props["spaced"] == "padded  "
    assert props["cont"] == "first second"
    assert props["text"] == "new"
    assert not any(k.startswith(("#", "!")) for k in props)


def test_properties_raw_line_break_continues_the_value() -> None:
    props = parse_properties("class=card strong\n         text-body-larger\ntext=$5.00\n")
    assert props == {"class": "card strong text-body-larger", "text": "$5.00"}


def test_properties_read_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "w.properties"
    path.write_bytes("text=Español 1 350 000+ artículos\n".encode())
    assert data.read_properties(path)["text"] == "Español 1 350 000+ artículos"


def test_widget_get_drops_blank_and_none_neighbours() -> None:
    widget = _w(text="  ", neighbor_text_above="0", neighbor_text_left="Search", tag="A")
    assert widget.get("text") is None
    assert widget.get("neighbor_text_above") is None
    assert widget.get("neighbor_text_left") == "Search"
    assert widget.get("missing") is None


# --- roles and names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("props", "role"),
    [
        ({"tag": "A", "href": "https://x.org/"}, "link"),
        ({"tag": "A"}, "link"),
        ({"tag": "A", "class": "btn", "is_button": "yes"}, "button"),
        ({"tag": "BUTTON"}, "button"),
        ({"tag": "INPUT", "type": "submit"}, "button"),
        ({"tag": "INPUT", "type": "reset"}, "button"),
        ({"tag": "INPUT"}, "textbox"),
        ({"tag": "INPUT", "type": "email"}, "textbox"),
        ({"tag": "INPUT", "type": "password"}, "textbox"),
        ({"tag": "INPUT", "type": "search"}, "searchbox"),
        ({"tag": "INPUT", "type": "checkbox"}, "checkbox"),
        ({"tag": "INPUT", "type": "radio"}, "radio"),
        ({"tag": "SELECT"}, "combobox"),
        ({"tag": "TEXTAREA"}, "textbox"),
        ({"tag": "IMG"}, "img"),
        ({"tag": "svg"}, "img"),
        ({"tag": "H2"}, "heading"),
        ({"tag": "LI"}, "listitem"),
        ({"tag": "LABEL"}, "label"),
        ({"tag": "P"}, "paragraph"),
        ({"tag": "SPAN"}, "generic"),
        ({"tag": "DIV"}, "generic"),
        ({}, "generic"),
    ],
)
def test_role_of(props: dict[str, str], role: str) -> None:
    raw = role_of(_w(**props))
    assert canonical_role(raw) == role


def test_name_of_order_and_form_values() -> None:
    assert name_of(_w(tag="A", visible_text="Shown", text="Content")) == "Shown"
    assert name_of(_w(tag="A", text="  Sign \n\t in ")) == "Sign in"
    assert name_of(_w(tag="IMG", alt="Logo", title="Home")) == "Logo"
    assert name_of(_w(tag="A", title="Home")) == "Home"
    assert name_of(_w(tag="INPUT", placeholder="Search", value="x")) == "Search"
    assert name_of(_w(tag="INPUT", type="submit", value="Go")) == "Go"
    # a list item's DOM value is its ordinal, not a label, also where Similo made it the
    # visible text
    assert name_of(_w(tag="LI", value="3")) == ""
    assert name_of(_w(tag="LI", value="0", visible_text="0")) == ""
    assert name_of(_w(tag="LI", value="0", visible_text="Home", text="Home")) == "Home"


def test_ref_of_fields() -> None:
    classes = " ".join(f"c{i}" for i in range(40))
    widget = _w(
        tag="A",
        id="nav-home",
        **{"class": f"{classes} c1"},
        href="https://x.org/home",
        title="Go home",
        text="Home",
        xpath="/html[1]/body[1]/a[1]",
        x="10",
        y="20",
        width="30",
        height="15",
        neighbor_text_above="0",
        neighbor_text_left="About us",
        neighbor_text_right="About us",
        neighbor_text_below="x" * 100,
    )
    ref = ref_of(widget)
    assert ref is not None
    assert (ref.role, ref.name, ref.tag) == ("link", "Home", "a")
    assert ref.bbox == (10.0, 20.0, 40.0, 35.0)
    assert len(ref.classes) == 32 and ref.classes[:2] == ("c0", "c1")
    assert ref.href == "https://x.org/home"
    assert ref.attributes == {"title": "Go home"}
    assert ref.nearby_text == ("About us", "x" * 80)
    assert (ref.xpath, ref.dom_id, ref.screen_size) == ("/html[1]/body[1]/a[1]", "nav-home", None)


def test_ref_of_without_geometry_or_with_bad_numbers() -> None:
    assert ref_of(_w(tag="SPAN", text="Hi", x="1", y="2")) is not None
    ref = ref_of(_w(tag="SPAN", text="Hi", x="nan", y="2", width="3", height="4"))
    assert ref is not None and ref.bbox is None
    ref = ref_of(_w(tag="SPAN", text="Hi", x="1", y="2", width="-3", height="4"))
    assert ref is not None and ref.bbox is None


def test_ref_the_model_refuses_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(convert, "role_of", lambda widget: "")
    assert ref_of(_w(tag="SPAN")) is None


def test_observation_tree_nests_by_xpath_and_resolves() -> None:
    candidates = [
        _w(tag="A", text="Sign in", href="/login", xpath="/html[1]/body[1]/ul[1]/li[1]/a[1]"),
        _w(tag="LI", text="Sign in", xpath="/html[1]/body[1]/ul[1]/li[1]"),
        _w(tag="BUTTON", text="Search", xpath="/html[1]/body[1]/form[1]/button[1]"),
    ]
    tree = observation_tree(candidates)
    assert tree["id"] == convert.ROOT_ID
    top = {c["id"]: c for c in tree["children"]}
    assert sorted(top) == ["1", "2"]
    assert [c["id"] for c in top["1"]["children"]] == ["0"]
    assert top["1"]["children"][0]["attributes"] == {"href": "/login"}
    assert top["2"]["children"] == []
    flat = observation_tree(candidates, nest=False)
    assert sorted(c["id"] for c in flat["children"]) == ["0", "1", "2"]
    ref = ref_of(_w(tag="BUTTON", text="Search"))
    assert ref is not None
    res = resolve(ref, Observation(accessibility_tree=tree), sources=("a11y",))
    assert res.executor_id == "a11y:2"


# --- the baseline ----------------------------------------------------------------------------


def test_baseline_prefers_the_most_similar() -> None:
    target = _w(tag="A", text="Sign in", href="https://x.org/login", xpath="/html[1]/a[2]")
    candidates = [
        _w(tag="A", text="Register", href="https://x.org/register", xpath="/html[1]/a[1]"),
        _w(tag="A", text="Sign in", href="https://x.org/login", xpath="/html[1]/a[3]"),
    ]
    assert similo_best(target, candidates) == (1, similo_score(target, candidates[1]))
    assert similo_best(target, []) is None
    assert similo_score(_w(x="0", y="0"), _w(x="0", y="300")) == 0.0


# --- pairs and split -------------------------------------------------------------------------


def _app(root: Path, name: str) -> Path:
    """A tiny app: two candidates, two targets, and four pairs of which one joins."""
    folder = root / "apps" / name
    _write(
        folder / "candidate_widgets" / "1.properties",
        {"tag": "A", "text": "Sign in", "href": "https://x.org/login", "xpath": "/html[1]/a[1]"},
    )
    _write(
        folder / "candidate_widgets" / "2.properties",
        {"tag": "BUTTON", "text": "Search", "xpath": "/html[1]/button[1]"},
    )
    _write(
        folder / "target_widgets" / "1.properties",
        {"tag": "A", "text": "Sign in", "href": "https://x.org/login", "xpath": "/html[1]/a[2]"},
    )
    _write(
        folder / "target_widgets" / "2.properties",
        {"tag": "SPAN", "text": "Twin", "xpath": "/html[1]/span[1]"},
    )
    _write(
        folder / "target_widgets" / "3.properties",
        {"tag": "SPAN", "text": "Twin", "xpath": "/html[1]/span[1]"},
    )
    _write(folder / "0.properties", {"old_xpath": "/html[1]/a[2]", "new_xpath": "/html[1]/a[1]"})
    _write(folder / "1.properties", {"old_xpath": "/html[1]/a[2]", "new_xpath": "/html[1]/p[1]"})
    _write(folder / "2.properties", {"old_xpath": "/html[1]/span[1]", "new_xpath": "/html[1]/a[1]"})
    _write(folder / "3.properties", {"old_xpath": "/html[1]/div[9]", "new_xpath": "/html[1]/a[1]"})
    return folder


def test_pair_join_skips_ambiguous_and_missing(tmp_path: Path) -> None:
    app = load_app(_app(tmp_path, "Google"))
    assert [w.file for w in app.candidates] == ["1.properties", "2.properties"]
    assert [(p.file, p.target.file, p.candidate) for p in app.pairs] == [
        ("0.properties", "1.properties", 0)
    ]
    reasons = dict(app.skipped)
    assert reasons["1.properties"] == "1 targets, 0 candidates"
    assert reasons["2.properties"] == "2 targets, 1 candidates"
    assert reasons["3.properties"] == "0 targets, 1 candidates"


def test_pair_join_skips_two_candidates(tmp_path: Path) -> None:
    folder = _app(tmp_path, "Google")
    _write(
        folder / "candidate_widgets" / "3.properties",
        {"tag": "A", "text": "Sign in", "xpath": "/html[1]/a[1]"},
    )
    app = load_app(folder)
    assert app.pairs == ()
    assert dict(app.skipped)["0.properties"] == "1 targets, 2 candidates"


def test_split_is_fixed_and_disjoint() -> None:
    assert len(TUNE_APPS) == len(HELDOUT_APPS) == 10
    assert not set(TUNE_APPS) & set(HELDOUT_APPS)
    assert split_rule(sorted(TUNE_APPS + HELDOUT_APPS)) == (TUNE_APPS, HELDOUT_APPS)
    assert split_of("Chase") == "tune" and split_of("Wikipedia") == "heldout"
    assert split_of("Nowhere") is None


@pytest.mark.corpus
def test_split_covers_the_corpus() -> None:
    root = data.corpus_dir()
    if root is None:
        pytest.skip("Similo corpus absent")
    apps = {p.name for p in (root / "apps").iterdir() if p.is_dir()}
    assert apps == set(TUNE_APPS) | set(HELDOUT_APPS)
    assert len(apps) == 20


# --- the report ------------------------------------------------------------------------------


def test_report_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _app(tmp_path, "Google")  # a tune app
    monkeypatch.setenv("RESOLVER_SIMILO", str(tmp_path))
    out = tmp_path / "out" / "similo.json"
    assert main(["--split", "all", "--json", str(out)]) == 0
    captured = capsys.readouterr()
    assert "## tune (1 apps, 1 pairs, 3 skipped)" in captured.out
    assert "## heldout" not in captured.out
    assert "| resolver (a11y) | 1 | 1 (100.0%) | 0 (0.0%) | 0 (0.0%) | 0 (0.0%) | 0 |" in (
        captured.out
    )
    assert "| Similo baseline | 1 | 1 (100.0%) | 0 (0.0%) |" in captured.out
    assert "| Google | 1 | 3 |" in captured.out
    assert "| `accept.score` | 1 | 0 | 0 | 0 |" in captured.out
    assert "Google" in captured.err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["tune"]["resolver"]["correct"] == 1
    assert report["summary"]["tune"]["baseline"] == {"correct": 1, "wrong": 0}
    (pair,) = report["pairs"]
    assert (pair["verdict"], pair["answer"], pair["truth"], pair["rule"]) == (
        "correct",
        "0",
        "0",
        "accept.score",
    )
    assert len(report["skipped"]) == 3


def test_report_heldout_only_leaves_tune_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _app(tmp_path, "Google")
    _app(tmp_path, "Okta")  # a held-out app
    assert main(["--split", "heldout", "--corpus", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "## heldout (1 apps, 1 pairs, 3 skipped)" in captured.out
    assert "## tune" not in captured.out


def test_absent_corpus_is_one_line_and_exit_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--corpus", str(tmp_path / "missing")]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 1 and "absent" in captured.out


def test_set_passes_config_fields_and_neighbours_can_be_left_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _app(tmp_path, "Google")
    assert main(["--corpus", str(tmp_path), "--set", "min_confidence=1", "--no-neighbours"]) == 0
    assert "| resolver (a11y) | 1 | 0 (0.0%) | 0 (0.0%) | 1 (100.0%) |" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--corpus", str(tmp_path), "--set", "threshold"])


def test_neighbour_texts_go_on_the_tree_nodes() -> None:
    widget = _w(tag="A", text="Apply", neighbor_text_above="Car loans", neighbor_text_below="0")
    (node,) = observation_tree([widget])["children"]
    assert node["nearby_text"] == ["Car loans"]
    (bare,) = observation_tree([widget], neighbours=False)["children"]
    assert "nearby_text" not in bare


# --- the pairwise model's training -----------------------------------------------------------


def test_training_is_deterministic_and_ranks_the_truth_first(tmp_path: Path) -> None:
    from benchmarks.similo.train import examples_of, fit, pick
    from benchmarks.similo.train import main as train_main

    apps = [data.load_app(_app(tmp_path, name)) for name in ("Google", "Chase")]
    examples = [ex for app in apps for ex in examples_of(app)]
    assert len(examples) == 2
    one, two = fit(examples, 1.0), fit(examples, 1.0)
    assert one.to_json() == two.to_json()
    for ex in examples:
        best, prob, lead = pick(one, ex)
        assert best == ex.truth and 0 < lead <= prob <= 1
    out = tmp_path / "model.json"
    assert train_main(["--corpus", str(tmp_path), "--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["trained_on"]["apps"] == list(TUNE_APPS)
    assert written["trained_on"]["pairs"] == 2  # Google and Chase are tune apps


def test_without_truth_deletes_the_target_and_what_is_inside_it(tmp_path: Path) -> None:
    from benchmarks.similo.run import without_truth

    app = data.load_app(_app(tmp_path, "Google"))
    link = next(i for i, w in enumerate(app.candidates) if w.get("tag") == "A")
    kept = without_truth(app, link)
    assert len(kept) == len(app.candidates) - 1
    assert all(w.get("tag") != "A" for w in kept)


def test_the_report_counts_removed_targets_answered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _app(tmp_path, "Google")
    out = tmp_path / "r.json"
    assert main(["--corpus", str(tmp_path), "--json", str(out)]) == 0
    assert "the resolver answered 0 (0.0%) of 1" in capsys.readouterr().out
    (pair,) = json.loads(out.read_text(encoding="utf-8"))["pairs"]
    assert pair["removed_answered"] is False


def test_without_truth_takes_the_wrapper_that_held_only_the_target() -> None:
    from benchmarks.similo.data import App
    from benchmarks.similo.run import without_truth

    cands = (
        _w(tag="LI", text="Loans", xpath="/html[1]/ul[1]/li[1]"),
        _w(tag="A", text="Loans", xpath="/html[1]/ul[1]/li[1]/a[1]"),
        _w(tag="SPAN", text="Loans", xpath="/html[1]/ul[1]/li[1]/a[1]/span[1]"),
        _w(tag="LI", text="Cards", xpath="/html[1]/ul[1]/li[2]"),
        _w(tag="UL", text="Loans Cards", xpath="/html[1]/ul[1]"),
    )
    app = App("x", cands, ())
    kept = without_truth(app, 2)  # the span: its link and list item held nothing else
    assert [w.get("text") for w in kept] == ["Cards", "Loans Cards"]


def test_same_control_is_the_same_element_elsewhere() -> None:
    from benchmarks.similo.run import same_control

    header = _w(tag="A", text="Facebook", href="https://fb.example/x", **{"class": "social"})
    footer = _w(**{**header.props, "xpath": "/html[1]/footer[1]/a[3]", "x": "40", "y": "900"})
    assert same_control(header, footer)  # the place, box and neighbours aside
    assert not same_control(header, _w(**{**header.props, "href": "https://fb.example/y"}))
    assert not same_control(header, _w(**{**header.props, "class": "social big"}))
    assert not same_control(header, _w(**{**header.props, "text": "Facebook page"}))
    assert not same_control(header, _w(**{**header.props, "tag": "BUTTON"}))


def test_a_removed_target_answered_by_its_copy_is_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "apps" / "Espn"
    link = {"tag": "A", "text": "Facebook", "href": "https://fb.example/espn", "class": "social"}
    _write(folder / "candidate_widgets" / "1.properties", {**link, "xpath": "/html[1]/div[1]/a[1]"})
    button = {"tag": "BUTTON", "text": "Search", "xpath": "/html[1]/button[1]"}
    _write(folder / "candidate_widgets" / "2.properties", button)
    _write(folder / "candidate_widgets" / "3.properties", {**link, "xpath": "/html[1]/p[1]/a[1]"})
    _write(folder / "target_widgets" / "1.properties", {**link, "xpath": "/html[1]/div[1]/a[1]"})
    pair = {"old_xpath": "/html[1]/div[1]/a[1]", "new_xpath": "/html[1]/div[1]/a[1]"}
    _write(folder / "0.properties", pair)
    out = tmp_path / "r.json"
    assert main(["--corpus", str(tmp_path), "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    (outcome,) = data["pairs"]
    assert outcome["removed_answered"] is True and outcome["removed_copy"] is True
    (half,) = data["summary"].values()
    assert half["removed_answered"] == half["removed_copies"] == 1
    assert "1 of them with another copy of the removed element" in capsys.readouterr().out


def test_an_abstention_with_the_truth_first_is_counted() -> None:
    from benchmarks.similo.data import TUNE_APPS, App
    from benchmarks.similo.run import Outcome, markdown, truth_first

    def refusal(best: str | None, *, right: bool) -> Outcome:
        return Outcome(
            app=TUNE_APPS[0], split="tune", pair="p", target_file="t", truth="3", role="button",
            name="Go", truth_name="Go", verdict="abstained", answer=None,
            rule="refuse.threshold", code="ELEMENT_NOT_FOUND", score=None, confidence=None,
            baseline_answer="3" if right else "4", baseline_correct=right, baseline_score=1.0,
            evidence=None if best is None else {"best": best, "score": 0.5, "margin": 0.1},
        )  # fmt: skip

    refusals = [refusal("3", right=True), refusal("4", right=False), refusal(None, right=True)]
    assert [truth_first(o) for o in refusals] == [True, False, False]
    text = markdown(refusals, [App(TUNE_APPS[0], (), ())], None)
    assert "Abstentions whose best candidate is the truth" in text
    assert "1 of 3; the baseline answers 2 of them right" in text
