from resolver import Observation
from resolver.catalog import build_catalog


def _catalog(count: int = 3) -> object:
    kids = [{"id": f"b{i}", "role": "button", "name": f"Button number {i} " + "x" * 60,
             "bbox": [10, 30 * i, 80, 30 * i + 20]} for i in range(count)]  # fmt: skip
    kids.append({"id": "off", "role": "button", "name": "Off", "disabled": True,
                 "bbox": [0, 0, 1, 1]})  # fmt: skip
    tree = {"id": "r", "role": "document", "name": "Page", "children": [
        {"id": "n", "role": "navigation", "name": "Main", "children": kids},
        {"id": "pw", "role": "textbox", "name": "Password", "value": "hunter22"}]}  # fmt: skip
    return build_catalog(Observation(accessibility_tree=tree))


def test_render_groups_by_region_and_is_stable() -> None:
    text = _catalog().render()  # type: ignore[attr-defined]
    assert text.splitlines()[0].startswith('page "Page" · version ')
    assert 'navigation "Main":' in text and "\npage:\n" in text
    assert "[disabled]" in text and '= "[redacted]"' in text and "hunter22" not in text
    assert _catalog().render() == text  # type: ignore[attr-defined]


def test_budget_shortens_then_leaves_out_with_a_note() -> None:
    catalog = _catalog(60)
    full = catalog.render(max_chars=100_000)  # type: ignore[attr-defined]
    small = catalog.render(max_chars=1500)  # type: ignore[attr-defined]
    tokens = catalog.render(max_tokens=300)  # type: ignore[attr-defined]
    assert len(full) > 1500 >= len(small) and len(tokens) <= 1200
    assert "more elements not shown" in small and "raise max_chars" in small
    assert "[1] button" in small  # the first elements are kept; [0] is disabled: left out
    assert "index 0," in small
