from resolver import Observation
from resolver.catalog import build_catalog
from resolver.catalog.render import _unique


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


def test_covered_entries_are_marked_and_left_out_first_over_the_budget() -> None:
    catalog = _catalog(60)
    text = catalog.render(covered={2, 3})  # type: ignore[attr-defined]
    lines = {line.split("]")[0].strip(): line for line in text.splitlines() if "] " in line}
    assert lines["[2"].endswith("[covered]") and lines["[3"].endswith("[covered]")
    assert "[covered]" not in lines["[4"]
    assert "[covered]" not in catalog.render()  # type: ignore[attr-defined]
    small = catalog.render(max_chars=1500, covered={1, 2})  # type: ignore[attr-defined]
    assert "[1] button" not in small and "[3] button" in small and "index 0, 1, 2" in small


def _users_table(people: list[tuple[str, str]]) -> dict[str, object]:
    rows = []
    for i, (name, mail) in enumerate(people):
        y = 40 + 30 * i
        cells = [
            {"id": f"n{i}", "role": "cell", "name": name, "bbox": [0, y, 100, y + 30]},
            {"id": f"m{i}", "role": "cell", "name": mail, "bbox": [100, y, 300, y + 30]},
            {"id": f"a{i}", "role": "cell", "name": "Delete", "bbox": [300, y, 400, y + 30],
             "children": [{"id": f"b{i}", "role": "button", "name": "Delete",
                           "bbox": [310, y + 5, 390, y + 25]}]},
        ]  # fmt: skip
        rows.append({"id": f"r{i}", "role": "row", "name": f"{name} {mail} Delete",
                     "bbox": [0, y, 400, y + 30], "children": cells})  # fmt: skip
    more = [{"id": f"x{i}", "role": "link", "name": "More",
             "bbox": [0, 400 + 40 * i, 50, 420 + 40 * i]} for i in range(2)]  # fmt: skip
    table = {"id": "t", "role": "table", "name": "Users", "children": rows}
    return {"id": "root", "role": "RootWebArea", "name": "Users",
            "children": [{"id": "main", "role": "main", "children": [table, *more]}]}  # fmt: skip


def test_look_alikes_are_told_apart_by_their_rows() -> None:
    people = [("Alice", "alice@example.com"), ("Bob", "bob@example.com"), ("Carol", "c@x.org")]
    text = build_catalog(Observation(accessibility_tree=_users_table(people))).render()
    lines = [line.strip() for line in text.splitlines() if "button: Delete" in line]
    assert lines == [
        '[0] button: Delete · in "Alice alice@example.com"',
        '[1] button: Delete · in "Bob bob@example.com"',
        '[2] button: Delete · in "Carol c@x.org"',
    ]
    # nothing around the two links differs: their order among them is what is left
    assert "[3] link: More · 1st of 2" in text and "[4] link: More · 2nd of 2" in text


def test_an_element_without_look_alikes_gets_no_context() -> None:
    text = build_catalog(Observation(accessibility_tree=_users_table([("Ada", "a@b.c")]))).render()
    assert "[0] button: Delete\n" in text + "\n" and "· in" not in text


def test_look_alikes_no_single_context_tells_apart_are_told_by_two() -> None:
    def group(gid: str, name: str, children: list[dict[str, object]]) -> dict[str, object]:
        return {"id": gid, "role": "group", "name": name, "children": children}

    def link(lid: str, y: int) -> dict[str, object]:
        return {"id": lid, "role": "link", "name": "►", "bbox": [0, y, 20, y + 10]}

    tree = group("root", "", [
        group("y14", "2014", [group("a", "October", [link("l1", 0)]),
                              group("b", "March", [link("l2", 20)])]),
        group("y15", "2015", [group("c", "October", [link("l3", 40)])]),
    ])  # fmt: skip
    lines = build_catalog(Observation(accessibility_tree=tree)).render().splitlines()[2:]
    assert len(set(lines)) == 3 and not any(" of 3" in line for line in lines)
    assert '[2] link: ► · in "2015"' in lines[2]
    # alone, each of the first link's surroundings is another's too; together they are not
    mine = ['in "October"', 'in "2014"']
    others = [{'in "October"', 'in "2015"'}, {'in "March"', 'in "2014"'}]
    assert _unique(mine, others) == 'in "October" · in "2014"'
    assert _unique(mine, [*others, set(mine)]) == ""
