import re
from typing import Any

import pytest

from resolver import (
    ConfigError,
    InvalidObservationError,
    Limits,
    Observation,
    ResolutionError,
    SemanticElementRef,
    UnsupportedFormatError,
    resolve,
    resolve_many,
)

TREE = {"id": "1", "role": "button", "name": "OK", "bbox": [0, 0, 10, 10]}


def test_immutable_and_cached() -> None:
    obs = Observation(accessibility_tree=TREE)
    with pytest.raises(AttributeError):
        obs.url = "x"  # type: ignore[misc]
    assert obs.candidates("a11y") is obs.candidates("a11y")


def test_duck_typing() -> None:
    class Harness:
        accessibility_tree = TREE
        dom_html = None
        screenshot = None

    obs = Observation.from_any(Harness())
    assert obs.has("a11y") and not obs.has("dom")
    assert Observation.from_any({"accessibility_tree": TREE}).has("a11y")
    with pytest.raises(InvalidObservationError):
        Observation.from_any(42)


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"dom": "<button>Buy</button>"}, "'dom' is not read: give it as 'dom_html'"),
        ({"html": "<a>x</a>", "url": "http://127.0.0.1/"}, "give it as 'dom_html'"),
        ({"a11y_tree": TREE}, "give it as 'accessibility_tree'"),
        ({"axtree_object": {"nodes": []}, "screenshot": None}, "BrowserGym observation"),
        ({"image": b"png", "dom_html": None}, "give it as 'screenshot'"),
        ({"instruction": "buy it", "goal": "x"}, "none of the keys an observation reads"),
    ],
)
def test_a_mapping_whose_input_would_go_unread_is_refused(given: dict[str, Any], says: str) -> None:
    # Before, each was an observation without input: a reference with a box was answered
    # by its recorded coordinates, the page given never looked at.
    with pytest.raises(InvalidObservationError, match=re.escape(says)):
        Observation.from_any(given)
    with pytest.raises(InvalidObservationError):
        resolve({"role": "button", "name": "Buy", "bbox": [0, 0, 10, 10]}, given)


def test_a_mapping_with_its_inputs_or_nothing_is_read() -> None:
    # The key named as the field wins over a look-alike key; an empty mapping, or one whose
    # fields are all empty beside other keys (a harness's), observes nothing.
    both = Observation.from_any({"dom_html": "<button>Buy</button>", "html": "<p>x</p>"})
    assert both.dom_html == "<button>Buy</button>"
    for nothing in ({}, {"accessibility_tree": None, "instruction": "x", "text": None}):
        obs = Observation.from_any(nothing)
        assert not any(obs.has(source) for source in ("a11y", "dom", "vision"))
    kept = resolve({"role": "button", "name": "Buy", "bbox": [0, 0, 10, 10]}, {})
    assert kept.source == "coords"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"dom_html": 5},
        {"screen_size": (0, 10)},
        {"screen_size": ("a", "b")},
        {"screen_size": (float("nan"), 3)},
        {"screen_size": (10**400, 3)},  # an integer too large for a float
        {"tree_format": 3},
        {"dom_layout": [1, 2]},
    ],
)
def test_bad_arguments(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree=TREE, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs", [{"max_nodes": 0}, {"max_nodes": True}, {"limits": {"max_nodes": 5}}]
)
def test_bad_options_are_config_errors(kwargs: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as caught:
        Observation(accessibility_tree=TREE, **kwargs)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ResolutionError)


def test_limits_option_and_max_nodes_shortcut() -> None:
    obs = Observation(accessibility_tree=TREE, limits=Limits(max_depth=10), max_nodes=7)
    assert obs.limits == Limits(max_depth=10, max_nodes=7) and obs.max_nodes == 7
    assert Observation(accessibility_tree=TREE).limits == Limits()


def test_unknown_source_and_missing_input() -> None:
    obs = Observation(accessibility_tree=TREE)
    with pytest.raises(InvalidObservationError):
        obs.candidates("ocr")
    with pytest.raises(InvalidObservationError):
        obs.candidates("dom")


def test_tree_format_override() -> None:
    obs = Observation(accessibility_tree=TREE, tree_format="nested")
    assert obs.candidates("a11y").format == "nested"
    with pytest.raises(UnsupportedFormatError):
        Observation(accessibility_tree=TREE, tree_format="nope").candidates("a11y")


def test_path_input(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import json

    path = tmp_path / "tree.json"
    path.write_text(json.dumps(TREE))
    assert len(Observation(accessibility_tree=path).candidates("a11y")) == 1
    with pytest.raises(InvalidObservationError):
        Observation(accessibility_tree=tmp_path / "missing.json").candidates("a11y")


def test_from_any_keeps_every_option() -> None:
    given = {
        "accessibility_tree": TREE,
        "dom_html": "<button>OK</button>",
        "screen_size": (640, 480),
        "url": "http://127.0.0.1/",
        "tree_format": "nested",
        "dom_layout": {"/html[1]/body[1]/button[1]": [0, 0, 10, 10]},
        "dom_node_map": {"7": "/html[1]/body[1]/button[1]"},
        "max_nodes": 10,
    }
    obs = Observation.from_any(given)
    for key, value in given.items():
        got = getattr(obs, key)
        assert got == (tuple(float(v) for v in value) if key == "screen_size" else value), key


def test_sources_come_from_the_registry() -> None:
    from resolver.adapters import SOURCE_NAMES, SOURCES

    assert SOURCE_NAMES == ("a11y", "dom", "vision")
    obs = Observation(dom_html="<a href=x>Home</a>")
    assert [obs.has(s) for s in SOURCE_NAMES] == [False, True, False]
    assert SOURCES["vision"].extra == "vision"
    with pytest.raises(InvalidObservationError, match="unknown source"):
        obs.candidates("ocr")


_FIRST = "/html[1]/body[1]/ul[1]/li[1]/a[1]"
_SECOND = "/html[1]/body[1]/ul[1]/li[2]/a[1]"


def _twins(first: str, second: str) -> Observation:
    """Two "Promoted Links" links in a list, of classes ``first`` and ``second``: a CDP tree
    (no classes in it) linked to the page's HTML by a backend-ID -> xpath map."""
    html = (
        "<html><body><ul>"
        f'<li><a class="{first}" href="#one">Promoted Links</a></li>'
        f'<li><a class="{second}" href="#one">Promoted Links</a></li>'
        "</ul></body></html>"
    )
    nodes: list[dict[str, Any]] = [
        {"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": "Page"},
         "childIds": ["4", "5"], "backendDOMNodeId": 1},
    ]  # fmt: skip
    for backend in (4, 5):
        nodes.append(
            {"nodeId": str(backend), "role": {"value": "link"},
             "name": {"value": "Promoted Links"}, "parentId": "1", "backendDOMNodeId": backend}
        )  # fmt: skip
    links = {"1": "/html[1]", "4": _FIRST, "5": _SECOND}
    return Observation(accessibility_tree={"nodes": nodes}, dom_html=html, dom_node_map=links)


def test_linked_tree_rows_carry_the_classes_the_page_gives_them() -> None:
    # The target, the disclosure link, was recorded in the first slot; a reorder put its twin
    # there. The recorded xpath names the twin now; the classes the page gives the linked
    # rows tell the two apart, for the accessibility tree alone as for the chain.
    ref = SemanticElementRef(
        role="link", name="Promoted Links", xpath=_FIRST, tag="a", classes=("trc_disclosure",)
    )
    reordered = _twins("trc_promo", "trc_disclosure")
    assert reordered.candidates("a11y").platform_ids["class"] == (
        None, "trc_promo", "trc_disclosure",
    )  # fmt: skip
    assert resolve(ref, reordered, sources=("a11y",)).executor_id == "a11y:5"
    assert resolve(ref, reordered).executor_id == "a11y:5"
    found = resolve_many([ref], reordered, sources=("a11y",))[0]
    assert not isinstance(found, ResolutionError) and found.executor_id == "a11y:5"
    # Where nothing moved, the recorded slot still holds the target.
    kept = _twins("trc_disclosure", "trc_promo")
    assert resolve(ref, kept, sources=("a11y",)).executor_id == "a11y:4"


def test_an_observation_pickles_and_copies_as_what_it_was_made_of() -> None:
    """A process pool or a cluster can take an observation: it travels as its inputs and
    options (not its lock or its built tables), and answers as the original does."""
    import copy
    import pickle

    from resolver import Limits, SemanticElementRef, resolve

    tree = {"id": "r", "role": "main", "name": "Shop", "children": [
        {"id": "b", "role": "button", "name": "Buy", "bbox": [0, 0, 10, 10]}]}  # fmt: skip
    obs = Observation(
        accessibility_tree=tree, url="https://shop.test/", screen_size=(800, 600),
        limits=Limits(max_depth=50), max_nodes=5_000, dom_html="<b>Buy</b>",
    )  # fmt: skip
    obs.candidates("a11y")  # a built table (and its lock) is not carried
    ref = SemanticElementRef(role="button", name="Buy")
    for again in (pickle.loads(pickle.dumps(obs)), copy.copy(obs), copy.deepcopy(obs)):
        assert again is not obs and again.limits == obs.limits and again.max_nodes == 5_000
        assert (again.url, again.screen_size, again.dom_html) == (
            obs.url,
            (800.0, 600.0),
            "<b>Buy</b>",
        )
        assert again.accessibility_tree == tree
        assert resolve(ref, again).executor_id == resolve(ref, obs).executor_id == "a11y:b"
    assert copy.copy(obs).accessibility_tree is tree
