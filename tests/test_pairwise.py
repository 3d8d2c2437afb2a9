"""The learned pairwise model: its features, its file and its probabilities."""

from __future__ import annotations

import json

import numpy as np
import pytest

from resolver import Observation, SemanticElementRef
from resolver.pairwise import FEATURES, PairwiseModel, applicable, load_model, pair_features


def _table(**extra: object) -> object:
    tree = {"id": "r", "role": "document", "children": [
        {"id": "a", "role": "link", "name": "Auto loans", "tag": "a",
         "xpath": "/html/body/div[2]/ul/li[3]/a", "bbox": [10, 100, 90, 120],
         "attributes": {"class": "menu-item", "href": "/loans/auto"},
         "nearby_text": ["Mortgages", "Credit cards"]},
        {"id": "b", "role": "button", "name": "Sign in", "tag": "button",
         "xpath": "/html/body/header/button", "bbox": [900, 10, 980, 40]},
        {"id": "c", "role": "link", "name": "", "tag": "a",
         "xpath": "/html/body/footer/a[1]"},
    ], **extra}  # fmt: skip
    return Observation(accessibility_tree=tree).candidates("a11y")


def test_features_compare_the_reference_with_each_row() -> None:
    table = _table()
    ref = SemanticElementRef(
        role="link", name="Car loan", tag="a", xpath="/html/body/div[1]/ul/li[3]/a",
        classes=("menu-item",), href="/loans/auto", nearby_text=("Mortgages",),
        bbox=(12, 98, 92, 118),
    )  # fmt: skip
    x = pair_features(ref, table)
    assert x.shape == (len(table), len(FEATURES))
    col = {name: i for i, name in enumerate(FEATURES)}
    rows = {node: i for i, node in enumerate(table.ids)}
    a, b = x[rows["a"]], x[rows["b"]]
    assert a[col["role"]] == 1 and b[col["role"]] == 0
    assert a[col["tag"]] == 1 and b[col["tag"]] == 0
    assert a[col["name_exact"]] == 0 and 0.5 < a[col["name_fuzzy"]] < 1
    assert a[col["class"]] == 1 and a[col["has_class"]] == 1 and b[col["has_class"]] == 0
    assert a[col["href"]] == 1
    assert a[col["nearby"]] == 1 and b[col["has_nearby"]] == 0
    assert a[col["xpath"]] > b[col["xpath"]] > 0
    assert a[col["box"]] > 0.8 and b[col["box"]] < a[col["box"]]
    assert np.isfinite(x).all()


def test_the_model_applies_to_web_references_on_web_rows_only() -> None:
    table = _table()
    assert applicable(SemanticElementRef(role="link", name="x", xpath="/html/body/a"), table)
    assert not applicable(SemanticElementRef(role="link", name="x"), table)
    plain = Observation(accessibility_tree={"id": "r", "role": "button", "name": "OK"})
    ref = SemanticElementRef(role="button", name="OK", tag="button")
    assert not applicable(ref, plain.candidates("a11y"))


def test_the_shipped_model_reads_and_ranks_the_right_row_first() -> None:
    model = load_model()
    assert model.features == FEATURES
    table = _table()
    ref = SemanticElementRef(
        role="link", name="Auto loans", tag="a", xpath="/html/body/div[2]/ul/li[3]/a",
        href="/loans/auto",
    )  # fmt: skip
    probs = model.probabilities(pair_features(ref, table))
    assert ((probs >= 0) & (probs <= 1)).all()
    assert table.ids[int(np.argmax(probs))] == "a"
    contributions = model.contributions(pair_features(ref, table)[0])
    assert set(contributions) == set(FEATURES)


def test_a_model_file_round_trips_and_bad_ones_are_refused() -> None:
    model = load_model()
    again = PairwiseModel.from_json(json.loads(json.dumps(model.to_json())))
    assert np.array_equal(again.weights, model.weights) and again.bias == model.bias
    data = model.to_json()
    with pytest.raises(ValueError, match="features"):
        PairwiseModel.from_json({**data, "features": ["name_exact"]})
    with pytest.raises(ValueError, match="finite"):
        PairwiseModel.from_json({**data, "weights": [float("nan")] * len(FEATURES)})
    with pytest.raises(ValueError, match="positive"):
        PairwiseModel.from_json({**data, "scale": [0.0] * len(FEATURES)})
