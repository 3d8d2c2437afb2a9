"""Extra removal, restyle, move and edit versions of the relocation benchmark (no browser, no
corpus): ``python -m pytest benchmarks/relocation/test_mutate.py``."""

from __future__ import annotations

import lxml.html
import pytest

from benchmarks.relocation.mutate import (
    EDITING_KINDS,
    MOVING_KINDS,
    edit_versions,
    move_versions,
    removal_versions,
    restyle_versions,
)
from benchmarks.relocation.targets import choose_targets, marked, serialize


def _page() -> lxml.html.HtmlElement:
    items = "".join(
        f'<li><a class="post-link" href="/p/{k}">Post number {k}</a></li>' for k in range(12)
    )
    html = (
        f"<html><head><title>Blog</title></head><body><h1>Blog</h1><ul>{items}</ul></body></html>"
    )
    return lxml.html.document_fromstring(html)


def test_removal_versions_remove_targets_by_their_own_seeds() -> None:
    root = _page()
    targets = choose_targets(root, "blog")
    assert targets
    versions = removal_versions(root, targets, "blog", 3)
    assert [v.name for v in versions] == ["r1-remove", "r2-remove", "r3-remove"]
    for version in versions:
        removed = {k for k, kind in version.touched.items() if kind == "remove"}
        left = set(marked(lxml.html.document_fromstring(version.html)))
        assert removed and not removed & left and left | removed == {t.key for t in targets}
    # Seeded: the same call gives the same versions; the seeds remove different targets.
    again = removal_versions(root, targets, "blog", 3)
    assert [v.html for v in again] == [v.html for v in versions]
    assert len({v.html for v in versions}) > 1
    assert removal_versions(root, targets, "blog", 0) == []


def test_restyle_versions_give_some_targets_alone_new_classes() -> None:
    root = _page()
    targets = choose_targets(root, "blog")
    versions = restyle_versions(root, targets, "blog", 2)
    assert [v.name for v in versions] == ["s1-restyle", "s2-restyle"]
    before = {k: el.get("class", "").split() for k, el in marked(root).items()}
    for version in versions:
        changed = marked(lxml.html.document_fromstring(version.html))
        restyled = {k for k, kind in version.touched.items() if kind == "restyle"}
        assert restyled and set(changed) == {t.key for t in targets}  # nothing removed
        for key, element in changed.items():
            classes = element.get("class", "").split()
            if key in restyled:  # as many new tokens, none of the old
                assert len(classes) == len(before[key]) and not set(classes) & set(before[key])
            else:
                assert classes == before[key]
    assert [v.html for v in restyle_versions(root, targets, "blog", 2)] == [
        v.html for v in versions
    ]
    assert restyle_versions(root, targets, "blog", 0) == []


def test_move_versions_keep_every_target_and_touch_some_by_each_moving_kind() -> None:
    root = _page()
    targets = choose_targets(root, "blog")
    versions = move_versions(root, targets, "blog", 2)
    kinds = {v.kind for v in versions}
    assert kinds and kinds <= set(MOVING_KINDS) and "remove" not in kinds
    assert all(v.name.startswith("m" + v.kind[:3]) for v in versions)
    for version in versions:
        assert set(marked(lxml.html.document_fromstring(version.html))) == {
            t.key for t in targets
        }  # nothing removed
        assert any(kind == version.kind for kind in version.touched.values())
    assert [v.html for v in move_versions(root, targets, "blog", 2)] == [v.html for v in versions]
    assert move_versions(root, targets, "blog", 0) == []
    # One kind alone: the same versions of that kind as when every kind is asked.
    banners = move_versions(root, targets, "blog", 2, ("banner",))
    assert [v.html for v in banners] == [v.html for v in versions if v.kind == "banner"]
    with pytest.raises(ValueError, match="not a moving kind"):
        move_versions(root, targets, "blog", 1, ("remove",))


def test_edit_versions_change_labels_or_add_decoys_and_keep_every_target() -> None:
    root = _page()
    targets = choose_targets(root, "blog")
    versions = edit_versions(root, targets, "blog", 1)
    kinds = {v.kind for v in versions}
    assert kinds and kinds <= set(EDITING_KINDS)
    assert all(v.name.startswith(EDITING_KINDS[v.kind] + "1-") for v in versions)
    base = serialize(root)
    for version in versions:
        assert set(marked(lxml.html.document_fromstring(version.html))) == {
            t.key for t in targets
        }  # nothing removed
        assert any(kind == version.kind for kind in version.touched.values())
        assert version.html != base
    assert [v.html for v in edit_versions(root, targets, "blog", 1)] == [v.html for v in versions]
    assert edit_versions(root, targets, "blog", 0) == []
