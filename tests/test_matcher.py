"""The vectorised matcher against the plain-Python reference scorer."""

import dataclasses
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_scorer import bbox_score, reference_scores, reference_top

from resolver import MatchConfig, Observation, SemanticElementRef, resolve_element
from resolver.adapters._common import XPATH_KEYS
from resolver.geometry import CoordSpace, Geometry
from resolver.matcher import (
    RELEVANT_GAP,
    Query,
    Scored,
    bbox_scores,
    best_first,
    box_agreement,
    box_diagonal,
    box_readings_of,
    distinct_codes,
    page_shift,
    recorded_group,
    score_table,
    scored_at,
    screen_rank,
    top_rows,
)
from resolver.table import MAX_ENTRY, CandidateTable, TableBuilder
from resolver.web import NEARBY_COLUMN, join_nearby

ROLES = ["button", "link", "menuitem", "heading", "textbox", "StaticText", "generic", "row",
         "group", "dialog", "checkbox", "AXButton", "push button", "listitem"]  # fmt: skip
NAMES = ["OK", "ok", "Cancel", "Save", "Save draft", "Inbox (3)", "Inbox (12)", "Edit",
         "Delete", "Read more", "Settings", "", "", "Display", "Network", "Sign in",
         "Sign In", "Submit form", "Alice Smith", "Bob Jones"]  # fmt: skip


TAGS = [None, "a", "button", "div"]
CLASSES = [None, "btn", "btn primary", "nav-link css-1x2y3z", "primary sc-AbCd", "x9f3a2b"]
HREFS = [None, "/a", "/a#top", "https://example.org/a?utm_source=x", "/b?id=3", "#",
         "/s/a/b", "/t/s/a/b?id=3", "/a/b?id=3&k=1", "/a/b#top"]  # fmt: skip
TYPES = [None, "text", "submit", "Text"]
TEXTS = ["Settings", "Display", "OK", "Inbox (3)", "Network", "Nowhere"]


def web_columns(rng: random.Random) -> dict[str, str | None]:
    """Random web evidence of one row."""
    return {
        "tag": rng.choice(TAGS), "class": rng.choice(CLASSES), "href": rng.choice(HREFS),
        "attr:type": rng.choice(TYPES),
    }  # fmt: skip


def web_fields(rng: random.Random) -> dict[str, object]:
    """Random web evidence of a reference (each part present or not)."""
    fields: dict[str, object] = {}
    if rng.random() < 0.3:
        fields["tag"] = rng.choice(TAGS[1:])
    if rng.random() < 0.3:
        fields["classes"] = rng.choice(CLASSES[1:])
    if rng.random() < 0.3:
        fields["href"] = rng.choice(HREFS[1:])
    if rng.random() < 0.3:
        fields["attributes"] = {"type": rng.choice(TYPES[1:])}
    if rng.random() < 0.4:
        fields["nearby_text"] = tuple(rng.sample(TEXTS, rng.randrange(1, 4)))
    return fields


def side_rng(rng: random.Random) -> random.Random:
    """A generator seeded from ``rng``'s state without advancing it (so the tables and refs
    other tests rely on stay as they were)."""
    return random.Random(hash(rng.getstate()[1]))


def random_table(rng: random.Random, n: int, recorded_nearby: bool = False) -> CandidateTable:
    columns = ("automation_id", "xpath", "tag", "class", "href", "attr:type")
    if recorded_nearby:
        columns = (*columns, NEARBY_COLUMN)
    b = TableBuilder("a11y", "random", id_columns=columns)
    web = side_rng(rng)
    texts = random.Random(hash(rng.getstate()[1]) + 1)
    for i in range(n):
        parent = -1 if i == 0 or rng.random() < 0.05 else rng.randrange(0, i)
        if rng.random() < 0.1:
            box = None
        else:
            x, y = rng.uniform(0, 1200), rng.uniform(0, 900)
            box = (x, y, x + rng.uniform(0, 200), y + rng.uniform(0, 60))
        b.add(
            str(i),
            raw_role=rng.choice(ROLES),
            name=rng.choice(NAMES),
            parent=parent,
            bbox=box,
            states=(
                rng.choice([-1, 1, 0]),
                rng.choice([-1, 1, 1, 0]),
                rng.choice([-1, 0, 1]),
            ),
            automation_id=rng.choice([None, None, "a1", "a2"]),
            xpath=rng.choice([None, "/html/body/div[1]", "/html/body/div[2]"]),
            **web_columns(web),
            **(
                {NEARBY_COLUMN: join_nearby(texts.sample(TEXTS, texts.randrange(0, 3)))}
                if recorded_nearby
                else {}
            ),
        )
    title = side_rng(rng).choice(["", "", "Settings", "Display", "Inbox (3)"])
    return b.build(
        coord_space=rng.choice([CoordSpace.CSS_PX, CoordSpace.UNKNOWN]),
        screen_size=(1280.0, 900.0),
        id_keys=XPATH_KEYS,
        document_name=title,
    )


def random_ref(rng: random.Random, table: CandidateTable) -> SemanticElementRef:
    row = rng.randrange(len(table))
    fields: dict[str, object] = {}
    if rng.random() < 0.8:
        fields["role"] = rng.choice([table.raw_roles[row], rng.choice(ROLES)])
    if rng.random() < 0.8:
        fields["name"] = rng.choice([table.names[row] or "OK", rng.choice(NAMES) or "Edit"])
    box = table.bboxes[row]
    if rng.random() < 0.7 and not np.isnan(box).any():
        dx = rng.uniform(-40, 40)
        fields["bbox"] = (box[0] + dx, box[1], box[2] + dx, box[3] + rng.uniform(0, 10))
        if rng.random() < 0.3:
            fields["screen_size"] = (1024, 768)
        if rng.random() < 0.3:
            fields["coord_space"] = rng.choice(["css_px", "screen_points"])
    if rng.random() < 0.5 and table.containers[row]:
        fields["container_path"] = table.containers[row]
        if table.document_name and side_rng(rng).random() < 0.5:  # as a CDP shim writes it
            fields["container_path"] = (table.document_name, *table.containers[row])
    if rng.random() < 0.3:
        fields["enabled"] = rng.choice([True, False])
    if rng.random() < 0.2:
        fields["focused"] = rng.choice([True, False])
    if rng.random() < 0.2:
        fields["automation_id"] = "a1"
    if rng.random() < 0.1:
        fields["xpath"] = "/html[1]/body[1]/div[1]"
    if rng.random() < 0.3:
        n = rng.randrange(1, 4)
        fields["occurrence"] = (rng.randrange(n), n)
    if rng.random() < 0.3:
        anchors = []
        for _ in range(rng.randrange(1, 4)):
            other = rng.randrange(len(table))
            x, y = rng.uniform(0, 1200), rng.uniform(0, 900)
            anchors.append((table.names[other] or "Edit", (x, y, x + 30, y + 10)))
        fields["anchors"] = tuple(anchors)
    fields.update(web_fields(side_rng(rng)))
    if not {"role", "name", "bbox", "automation_id", "xpath"} & set(fields):
        fields["name"] = "OK"
    return SemanticElementRef(**fields)  # type: ignore[arg-type]


def assert_identical(got: Scored, want: Scored) -> None:
    """Everything a Scored holds, the same numbers."""
    assert got.rows.tolist() == want.rows.tolist()
    assert got.scores.tolist() == want.scores.tolist()
    assert list(got.signals) == list(want.signals)
    for name, values in want.signals.items():
        assert got.signals[name].tolist() == values.tolist(), name
    assert got.evaluated == want.evaluated


def assert_same_top(ref: SemanticElementRef, table: CandidateTable, config: MatchConfig) -> None:
    """The fast path's top rows are the reference's: same scores, and the same rows except
    where the reference itself has a tie (two rows with the same score)."""
    k = 4
    fast = score_table(ref, table, config, k=k)
    every = reference_scores(ref, table, config)
    slow = reference_top(ref, table, config, k)
    if not slow:
        assert all(s < 0.05 for s in fast.scores[:k])
        return
    cut = max(0.05, slow[0][1] - RELEVANT_GAP)
    slow = [(r, s) for r, s in slow if s >= cut]
    top = zip(fast.rows[:k], fast.scores[:k], strict=True)
    got = [(int(r), float(s)) for r, s in top if s >= cut]
    assert len(got) == len(slow)
    for (row_a, score_a), (row_b, score_b) in zip(got, slow, strict=True):
        assert score_a == pytest.approx(score_b, abs=1e-9)
        assert every[row_a] == pytest.approx(score_a, abs=1e-9)  # the fast row's true score
        tied = sum(1 for s in every if math.isclose(s, score_b, abs_tol=1e-9))
        if tied == 1:
            assert row_a == row_b, (row_a, row_b, score_b)


def test_chosen_rows_are_compared() -> None:
    # The row comparison above must be able to fail: a table with distinct scores.
    table = random_table(random.Random(11), 60)
    ref = SemanticElementRef(role="button", name="Save draft", bbox=(40, 40, 120, 70))
    fast = score_table(ref, table, MatchConfig(), k=4)
    every = reference_scores(ref, table, MatchConfig())
    best = max(range(len(every)), key=lambda i: (every[i], -i))
    assert sum(1 for s in every if math.isclose(s, every[best], abs_tol=1e-9)) == 1
    assert int(fast.rows[0]) == best


@pytest.mark.parametrize("seed", range(40))
def test_fast_path_matches_reference(seed: int) -> None:
    rng = random.Random(seed)
    table = random_table(rng, rng.choice([1, 5, 50, 400]))
    config = MatchConfig()
    for _ in range(8):
        assert_same_top(random_ref(rng, table), table, config)


@pytest.mark.parametrize("seed", range(20))
def test_fast_path_matches_reference_with_recorded_neighbour_texts(seed: int) -> None:
    # Rows carrying the neighbour texts a recorder kept per node (the ``nearby`` column).
    rng = random.Random(1000 + seed)
    table = random_table(rng, rng.choice([5, 50, 200]), recorded_nearby=True)
    assert any(table.platform_ids[NEARBY_COLUMN])
    for _ in range(8):
        ref = random_ref(rng, table)
        if not ref.nearby_text:
            ref = ref.model_copy(update={"nearby_text": ("Display", "Nowhere")})
        assert_same_top(ref, table, MatchConfig())


@pytest.mark.parametrize("seed", range(20))
def test_fast_path_matches_reference_where_names_are_read(seed: int) -> None:
    # A table whose names are read from a screenshot: look-alikes of any container path.
    rng = random.Random(2000 + seed)
    table = dataclasses.replace(random_table(rng, rng.choice([5, 50, 200])), names_read=True)
    for _ in range(8):
        assert_same_top(_with_group(random_ref(rng, table), table, rng), table, MatchConfig())


def _with_group(
    ref: SemanticElementRef, table: CandidateTable, rng: random.Random
) -> SemanticElementRef:
    """``ref`` recorded as one of several boxed rows sharing a role and a name (when the
    table has such rows): their role and name, its box and order among them, the others'
    boxes as its look-alikes."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i in range(len(table)):
        if table.names[i].strip() and not np.isnan(table.bboxes[i]).any():
            groups.setdefault((table.names[i], table.roles[i]), []).append(i)
    choices = sorted(key for key, rows in groups.items() if len(rows) >= 2)
    if not choices:
        return ref
    name, role = rng.choice(choices)
    rows = groups[(name, role)]
    k = rng.randrange(len(rows))
    boxes = [tuple(float(v) for v in table.bboxes[i]) for i in rows]
    return ref.model_copy(update={
        "name": name, "role": role, "bbox": boxes[k], "screen_size": None, "anchors": (),
        "occurrence": (k, len(rows)), "lookalikes": tuple(b for j, b in enumerate(boxes) if j != k),
    })  # fmt: skip


def _two_video_links(*, read: bool) -> CandidateTable:
    """Two "Video" links in two navigation bars, 80 px apart, each under its own title
    (a screenshot groups rows by the titles drawn above them)."""
    b = TableBuilder("vision" if read else "a11y", "test")
    b.add("t1", raw_role="text", role="heading", name="Latest", bbox=(8, 330, 90, 350))
    b.add("v1", raw_role="text", role="link", name="Video", parent=0, bbox=(85, 366, 123, 390))
    b.add("t2", raw_role="text", role="heading", name="Kotaku", bbox=(8, 410, 90, 440))
    b.add("v2", raw_role="text", role="link", name="Video", parent=2, bbox=(82, 445, 120, 469))
    extra = {"names_read": True} if read else {}
    return b.build(screen_size=(1280.0, 800.0), **extra)


def test_on_a_screenshot_the_recorded_order_of_look_alikes_counts_whatever_their_path() -> None:
    # The second of two "Video" links under the page's navigation, recorded where a word
    # was added before it: the box alone hardly tells the two apart; their order does.
    ref = SemanticElementRef(
        role="link", name="Video", bbox=(47.0, 448.0, 85.0, 465.0), occurrence=(1, 2),
        container_path=("The Spectacular Story", "[navigation]"),
        lookalikes=((85.0, 369.0, 123.0, 386.0),),
    )  # fmt: skip
    shot = score_table(ref, _two_video_links(read=True), MatchConfig())
    assert shot.signals["occurrence"].tolist()[:2] == [1.0, 0.0]
    assert int(shot.rows[0]) == 3 and float(shot.scores[0] - shot.scores[1]) > 0.1
    # Not where the recorded look-alike was (a copy put before the target), or without the
    # recorded look-alike's box: the order is not compared.
    for moved in (
        ref.model_copy(update={"lookalikes": ((85.0, 250.0, 123.0, 267.0),)}),
        ref.model_copy(update={"lookalikes": ()}),
    ):
        other = score_table(moved, _two_video_links(read=True), MatchConfig())
        assert float(other.signals["occurrence"].max()) == 0.0
    # A tree's rows keep their container paths: there the recorded path names the group.
    tree = score_table(ref, _two_video_links(read=False), MatchConfig())
    assert float(tree.signals["occurrence"].max()) == 0.0


def test_a_screenshot_checks_recorded_sections_against_its_groups_only() -> None:
    # A line of text is the parent of the words split out of it; a recorded section named
    # by its text resembles that line, but the screen shows no such group: no evidence.
    b = TableBuilder("vision", "test")
    line = b.add("p", raw_role="text", role="text", name="Lorem ipsum dolor sit amet elit",
                 bbox=(8, 108, 660, 128))  # fmt: skip
    b.add("w", raw_role="text", role="text", name="Lorem", parent=line, bbox=(8, 108, 50, 128))
    group = b.add("g", raw_role="group", role="group", name="Foo", bbox=(9, 200, 1268, 346))
    b.add("h", raw_role="text", role="heading", name="Foo", parent=group, bbox=(10, 200, 46, 229))
    table = b.build(screen_size=(1280.0, 800.0), names_read=True, groups_by_title=True)
    ref = SemanticElementRef(
        role="heading", name="Foo", bbox=(8.0, 153.78, 1272.0, 180.78),
        container_path=("Normalize space test", "Lorem Lorem ipsum dolor sit amet elit"),
    )  # fmt: skip
    scored = score_table(ref, table, MatchConfig())
    assert int(scored.rows[0]) == 3 and "container" not in scored.signals
    assert_same_top(ref, table, MatchConfig())


def _video_links_at(*tops: float) -> CandidateTable:
    """Two "Video" links read on a screenshot, their tops at ``tops``, nothing else."""
    b = TableBuilder("vision", "test")
    for k, top in enumerate(tops):
        b.add(f"v{k}", raw_role="text", role="link", name="Video", bbox=(84, top, 122, top + 24))
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_look_alikes_moved_together_keep_their_recorded_order() -> None:
    # Words added above the navigation moved both links 30 px down; no anchor says so.
    ref = SemanticElementRef(
        role="link", name="Video", bbox=(84.0, 446.0, 122.0, 463.0), occurrence=(1, 2),
        container_path=("The Spectacular Story", "[navigation]"),
        lookalikes=((84.0, 366.0, 122.0, 383.0),),
    )  # fmt: skip
    moved = score_table(ref, _video_links_at(393.0, 473.0), MatchConfig())
    assert moved.signals["occurrence"].tolist() == [1.0, 0.0]
    assert int(moved.rows[0]) == 1
    assert_same_top(ref, _video_links_at(393.0, 473.0), MatchConfig())
    # Moved by different amounts (the gap between them changed, even by 10 px: a shift fitted
    # to the rows themselves leaves a quarter of a box's height), or trading places with
    # nothing between: the order is not compared.
    for tops in ((393.0, 533.0), (393.0, 463.0), (443.0, 363.0)):
        other = score_table(ref, _video_links_at(*tops), MatchConfig())
        assert float(other.signals["occurrence"].max()) == 0.0, tops
    # A group of one recorded by another tool, its one row elsewhere: no shift of its own.
    alone = ref.model_copy(update={"occurrence": (0, 1), "lookalikes": ()})
    single = score_table(alone, _video_links_at(600.0), MatchConfig())
    assert float(single.signals["occurrence"].max()) == 0.0
    assert_same_top(alone, _video_links_at(600.0), MatchConfig())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(1, 120))
def test_fast_path_matches_reference_hypothesis(seed: int, n: int) -> None:
    rng = random.Random(seed)
    table = random_table(rng, n)
    assert_same_top(random_ref(rng, table), table, MatchConfig())


def test_full_scores_match_reference_on_every_row() -> None:
    rng = random.Random(7)
    table = random_table(rng, 300)
    config = MatchConfig()
    ref = SemanticElementRef(role="button", name="Save", bbox=(100, 100, 160, 130),
                             container_path=("Settings",))  # fmt: skip
    fast = score_table(ref, table, config, k=len(table))
    slow = reference_scores(ref, table, config)
    by_row = dict(zip(fast.rows.tolist(), fast.scores.tolist(), strict=True))
    for row, score in by_row.items():
        assert score == pytest.approx(slow[row], abs=1e-9)


def test_pruning_skips_most_rows_on_large_tables() -> None:
    rng = random.Random(3)
    table = random_table(rng, 5000)
    ref = SemanticElementRef(role="button", name="Submit form", bbox=(10, 10, 90, 40))
    scored = score_table(ref, table, MatchConfig())
    assert scored.evaluated < len(table)


@given(
    st.integers(1, 40),
    st.integers(0, 5000),
    st.integers(1, 30),
    st.integers(0, 2**32 - 1),
)
def test_top_rows_are_the_largest_values_ties_to_the_first_rows(
    top: int, extra: int, levels: int, seed: int
) -> None:
    # Few distinct levels make long ties at the cut, as role and web bounds do.
    rng = np.random.default_rng(seed)
    values = rng.integers(0, levels, size=top + extra).astype(np.float64) / levels
    expected = np.sort(np.lexsort((np.arange(values.size), -values))[:top])
    assert top_rows(values, top).tolist() == expected.tolist()


def _swapped_ties(values: np.ndarray, kth: int, **_: object) -> np.ndarray:
    """A valid ``np.argpartition`` whose choice among equal values is the reverse of a
    stable sort's (as another CPU's selection code may choose)."""
    n = values.size
    return np.lexsort((-np.arange(n), values))


def test_the_rows_a_ranking_shows_do_not_depend_on_numpy_s_choice_among_ties(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 300 buttons whose bounds tie (another name, the same role) and one "Save": the rows
    # ranked after "Save" are the seeds among the ties. numpy's selection picks some of
    # equal values by CPU (AVX-512, AVX2 and plain code choose differently).
    # A recorded tag makes the bounds the reference's own (not a shared, sorted order).
    b = TableBuilder("a11y", "ties", id_columns=("tag",))
    for i in range(300):
        b.add(str(i), raw_role="button", name=f"Item {i}", parent=-1, tag="button",
              bbox=(float(i % 30) * 40, float(i // 30) * 30, float(i % 30) * 40 + 30,
                    float(i // 30) * 30 + 20))  # fmt: skip
    b.add("save", raw_role="button", name="Save", parent=-1, tag="button", bbox=(5, 500, 60, 520))
    table = b.build(coord_space=CoordSpace.CSS_PX, screen_size=(1280.0, 900.0))
    ref = SemanticElementRef(role="button", name="Save", bbox=(5, 500, 60, 520), tag="button")
    first = score_table(ref, table, MatchConfig())
    monkeypatch.setattr(np, "argpartition", _swapped_ties)
    second = score_table(ref, table, MatchConfig())
    assert table.ids[int(first.rows[0])] == "save"
    assert first.rows.tolist() == second.rows.tolist()
    assert first.scores.tolist() == second.scores.tolist()


@given(
    st.tuples(*[st.floats(-1e4, 1e4)] * 2, st.floats(0, 500), st.floats(0, 500)),
    st.lists(
        st.tuples(*[st.floats(-1e4, 1e4)] * 2, st.floats(0, 500), st.floats(0, 500)),
        min_size=1,
        max_size=20,
    ),
)
def test_bbox_scores_vector_equals_scalar(
    ref: tuple[float, ...], boxes: list[tuple[float, ...]]
) -> None:
    rbox = (ref[0], ref[1], ref[0] + ref[2], ref[1] + ref[3])
    arr = np.array([[x, y, x + w, y + h] for x, y, w, h in boxes], dtype=np.float64)
    fast = bbox_scores(rbox, arr, 0.3)
    for i, row in enumerate(arr):
        assert fast[i] == pytest.approx(bbox_score(rbox, row.tolist(), 0.3), abs=1e-9)
        assert 0.0 <= fast[i] <= 1.0


def test_empty_table() -> None:
    table = TableBuilder("a11y", "empty").build()
    scored = score_table(SemanticElementRef(name="x"), table, MatchConfig())
    assert scored.rows.size == 0


def test_dom_id_and_test_id_are_evidence_for_not_against() -> None:
    b = TableBuilder("dom", "html", executor_prefix="xpath:", id_columns=("dom_id", "testid"))
    b.add("/b[1]", raw_role="button", name="Save", dom_id="save-top", testid=None)
    b.add("/b[2]", raw_role="button", name="Save", dom_id=None, testid="save-bottom")
    table = b.build()
    config = MatchConfig()
    by_id = score_table(SemanticElementRef(role="button", name="Save", dom_id="save-top"),
                        table, config)  # fmt: skip
    by_test = score_table(SemanticElementRef(role="button", name="Save", test_id="save-bottom"),
                          table, config)  # fmt: skip
    renamed = score_table(SemanticElementRef(role="button", name="Save", dom_id="renamed"),
                          table, config)  # fmt: skip
    assert int(by_id.rows[0]) == 0 and by_id.scores[0] > by_id.scores[1]
    assert int(by_test.rows[0]) == 1 and by_test.scores[0] > by_test.scores[1]
    assert renamed.scores[0] == renamed.scores[1] == 1.0  # a different id counts for nothing


def test_a_long_ancestor_name_recorded_whole_agrees_with_the_table_s_cut_of_it() -> None:
    # A CDP shim writes a layout cell's name (all its text) whole; the table keeps the first
    # MAX_ENTRY characters of every container entry and named ancestor.
    long_name = "Official links: " + " ".join(f"Link number {i}" for i in range(20))
    assert len(long_name) > MAX_ENTRY
    b = TableBuilder("a11y", "cdp")
    page = b.add("0", raw_role="RootWebArea", name="Page")
    cells = [b.add(str(1 + k), raw_role="LayoutTableCell", name=long_name if k == 0 else
                   "Shop and games", parent=page) for k in range(2)]  # fmt: skip
    for k, cell in enumerate(cells):
        b.add(
            f"l{k}",
            raw_role="link",
            name="Forums",
            parent=cell,
            bbox=(10, 10 + 300 * k, 90, 30 + 300 * k),
        )
    table = b.build(coord_space=CoordSpace.CSS_PX)
    ref = SemanticElementRef(role="link", name="Forums", container_path=("Page", long_name))
    scored = score_table(ref, table, MatchConfig(), k=2)
    assert table.ids[int(scored.rows[0])] == "l0"
    assert scored.signals["container"][0] == 1.0
    assert scored.scores[0] - scored.scores[1] > 0.1


def test_a_path_of_named_ancestors_is_read_as_such_when_one_of_them_changed_a_little() -> None:
    # A layout cell named by all its text changes its name with any word in it: the recorded
    # path still names the cell (an ancestor of any role), not some container.
    before = "Official links: Minecraft.net Realms Merchandise Bug tracker Account Support"
    after = before.replace("Merchandise", "Merchandise Next")
    b = TableBuilder("a11y", "cdp")
    page = b.add("0", raw_role="RootWebArea", name="Minecraft news")
    cell = b.add("1", raw_role="LayoutTableCell", name=after, parent=page)
    other = b.add(
        "2", raw_role="LayoutTableCell", name="Community links: Forums Twitch", parent=page
    )
    b.add("a", raw_role="link", name="Realms", parent=cell, bbox=(10, 10, 90, 30))
    b.add("b", raw_role="link", name="Realms", parent=other, bbox=(10, 410, 90, 430))
    table = b.build(coord_space=CoordSpace.CSS_PX)
    ref = SemanticElementRef(role="link", name="Realms", container_path=("Minecraft news", before))
    scored = score_table(ref, table, MatchConfig(), k=2)
    assert table.ids[int(scored.rows[0])] == "a"
    assert scored.signals["container"][0] > 0.8
    assert scored.scores[0] - scored.scores[1] > 0.1


def test_a_recorded_landmark_the_page_no_longer_has_is_no_evidence() -> None:
    # The header was unwrapped: no row sits in a banner any more, so "[banner]" is missing
    # for the target and every other row alike.
    b = TableBuilder("a11y", "cdp")
    page = b.add("0", raw_role="RootWebArea", name="Blog")
    b.add("h", raw_role="heading", name="Hi, I'm Nicolas.", parent=page, bbox=(8, 20, 900, 60))
    main = b.add("m", raw_role="main", parent=page)
    b.add("p", raw_role="heading", name="Code coverage", parent=main, bbox=(8, 120, 900, 150))
    table = b.build(coord_space=CoordSpace.CSS_PX)
    ref = SemanticElementRef(
        role="heading", name="Hi, I'm Nicolas.", bbox=(8, 20, 900, 60),
        container_path=("Blog", "[banner]"),
    )  # fmt: skip
    scored = score_table(ref, table, MatchConfig(), k=1)
    assert table.ids[int(scored.rows[0])] == "h"
    assert scored.scores[0] == 1.0
    with_banner = TableBuilder("a11y", "cdp")
    page = with_banner.add("0", raw_role="RootWebArea", name="Blog")
    banner = with_banner.add("b", raw_role="banner", parent=page)
    with_banner.add("l", raw_role="link", name="Home", parent=banner, bbox=(8, 0, 60, 16))
    with_banner.add(
        "h", raw_role="heading", name="Hi, I'm Nicolas.", parent=page, bbox=(8, 20, 900, 60)
    )
    kept = score_table(ref, with_banner.build(coord_space=CoordSpace.CSS_PX), MatchConfig(), k=1)
    assert kept.scores[0] < 0.9  # a banner is still there, and the heading is not in it


def test_the_recorded_group_reads_the_role_as_the_query_does() -> None:
    # A platform's role name ("AXButton", "push button") is the canonical one for the group.
    b = TableBuilder("a11y", "test")
    root = b.add("dlg", raw_role="dialog", name="Settings", bbox=(0, 0, 600, 500))
    for k in range(2):
        b.add(f"ok{k}", raw_role="button", name="OK", parent=root,
              bbox=(500, 160 + 200 * k, 570, 190 + 200 * k))  # fmt: skip
    table = b.build()
    for role in ("button", "AXButton", "push button"):
        ref = SemanticElementRef(role=role, name="OK", container_path=("Settings",))
        assert recorded_group(ref, table).tolist() == [1, 2]
    assert recorded_group(SemanticElementRef(role="button", name="OK"), table).size == 0


def _orders(names: list[str]) -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("list", raw_role="list", name="Orders")
    for i, name in enumerate(names):
        b.add(f"o{i}", raw_role="link", name=name, parent=root, bbox=(10, 20 * i, 200, 20 * i + 18))
    return b.build()


def test_an_exact_name_is_found_among_ten_thousand_look_alike_names() -> None:
    # Every "Order <n>" agrees with "Order 5555" once digits are masked: 10,000 name hits,
    # more than are scored first. The one bearing the name exactly is always among them.
    from resolver import Observation, resolve, resolve_many
    from resolver.errors import AmbiguousMatchError

    names = [f"Order {i}" for i in range(10_000)]
    table = _orders(names)
    ref = SemanticElementRef(role="link", name="Order 5555")
    scored = score_table(ref, table, MatchConfig())
    assert table.ids[int(scored.rows[0])] == "o5555" and float(scored.scores[0]) == 1.0
    assert scored.scores.size < 2 or float(scored.scores[1]) < 1.0
    assert_same_top(ref, table, MatchConfig())
    tree = {"id": "list", "role": "list", "name": "Orders", "children": [
        {"id": f"o{i}", "role": "link", "name": name} for i, name in enumerate(names)
    ]}  # fmt: skip
    obs = Observation(accessibility_tree=tree)
    assert resolve(ref, obs).executor_id == "a11y:o5555"
    last = SemanticElementRef(role="link", name="Order 9999")
    found = resolve_many([ref, last], obs)
    assert [r.executor_id for r in found] == ["a11y:o5555", "a11y:o9999"]  # type: ignore[union-attr]
    # Two bearing it exactly: a tie, and both are in the evidence.
    names[7777] = "Order 5555"
    twin = {**tree, "children": [
        {"id": f"o{i}", "role": "link", "name": name} for i, name in enumerate(names)
    ]}  # fmt: skip
    with pytest.raises(AmbiguousMatchError) as tie:
        resolve(ref, Observation(accessibility_tree=twin))
    assert {c.executor_id for c in tie.value.evidence.candidates[:2]} == {
        "a11y:o5555",
        "a11y:o7777",
    }


def test_a_recorded_class_or_link_identifies_an_unnamed_element() -> None:
    # Two unnamed icon links and no boxes: the recorded class (or link) that one of them has
    # in full tells them apart; with neither, the reference has nothing but its role.
    from resolver import Observation, resolve
    from resolver.errors import ElementNotFoundError

    links = [
        {
            "id": k,
            "role": "link",
            "tag": "a",
            "attributes": {"class": f"brand-{k}", "href": f"/{k}"},
        }
        for k in ("tt", "qb")
    ]
    tree = {"id": "p", "role": "main", "children": links}
    obs = Observation(accessibility_tree=tree)
    by_class = SemanticElementRef(role="link", classes=("brand-qb",), tag="a")
    assert resolve(by_class, obs).executor_id == "a11y:qb"
    by_link = SemanticElementRef(role="link", href="/tt")
    assert resolve(by_link, obs).executor_id == "a11y:tt"
    with pytest.raises(ElementNotFoundError) as bare:
        resolve(SemanticElementRef(role="link", tag="a"), obs)
    assert bare.value.evidence.rule == "refuse.role_only"


def _two_links(name: str, first: list[float], second: list[float]) -> Observation:
    """An observation at 1280x800 of two links named ``name``, ``a`` and ``b``, at ``first``
    and ``second``."""
    tree = {"id": "r", "role": "document", "children": [
        {"id": "a", "role": "link", "name": name, "bbox": first},
        {"id": "b", "role": "link", "name": name, "bbox": second},
    ]}  # fmt: skip
    return Observation(accessibility_tree=tree, screen_size=(1280, 800))


@pytest.mark.parametrize(
    ("name", "first", "second", "recorded", "screen"),
    [
        # Two "Read more" links far apart on a long page; the reference was recorded in a
        # 1440x900 window (the page centred, 80 px further right) of the lower one, a.
        # Rescaled by the screens' ratio, as a zoom would be, its box lands 220 px above the
        # link, far from both: a tie. Read as recorded (a resized window reflows the page,
        # it does not scale it) it lands on the lower link.
        ("Read more", [400, 2000, 800, 2020], [400, 1200, 800, 1220],
         (480, 2000, 880, 2020), (1440, 900)),
        # The same recorded at zoom 1.25 instead (box and screen scaled): the scaled reading.
        ("Read more", [400, 2000, 800, 2020], [400, 1200, 800, 1220],
         (500, 2500, 1000, 2525), (1600, 1000)),
        # Two "Share" links side by side, recorded in the wider window of the left one, the
        # page centred in it: read unscaled, its box falls between the two, nearer the right
        # one; read with the page re-centred (moved back by half the change in width), on
        # the left one.
        ("Share", [400, 600, 470, 620], [500, 600, 570, 620], (480, 600, 550, 620), (1440, 900)),
    ],
)  # fmt: skip
def test_a_box_recorded_on_another_screen_size_is_read_every_way_it_may_have_moved(
    name: str,
    first: list[float],
    second: list[float],
    recorded: tuple[float, float, float, float],
    screen: tuple[int, int],
) -> None:
    from resolver import resolve

    obs = _two_links(name, first, second)
    ref = SemanticElementRef(role="link", name=name, bbox=recorded, screen_size=screen)
    assert resolve(ref, obs, sources=("a11y",)).executor_id == "a11y:a"
    table, config = obs.candidates("a11y"), MatchConfig()
    fast = score_table(ref, table, config)
    slow = reference_scores(ref, table, config)
    for j, row in enumerate(fast.rows.tolist()):
        assert fast.scores[j] == pytest.approx(slow[row], abs=1e-9)


def _tree_and_screen(children: list[dict[str, object]]) -> tuple[CandidateTable, CandidateTable]:
    """A document of ``children`` as a tree's table, and the same rows as a screenshot's
    (names read from pixels)."""
    tree = {"id": "r", "role": "document", "children": children}
    table = Observation(accessibility_tree=tree, screen_size=(1280, 800)).candidates("a11y")
    return table, dataclasses.replace(table, names_read=True)


def test_on_a_screenshot_the_page_shift_reads_anchors_by_their_nearest_edge() -> None:
    # Recorded from a tree: the document (the whole screen) and two headings by their
    # blocks' boxes (the page's width). Read on a screenshot: the title repeated as a
    # heading at the top, and the headings as their words' boxes, 115 px higher.
    tree_table, read = _tree_and_screen([
        {"id": "t", "role": "heading", "name": "Readability Test", "bbox": [15, 24, 232, 57]},
        {"id": "a", "role": "heading", "name": "Single figure", "bbox": [11, 195, 161, 222]},
        {"id": "b", "role": "heading", "name": "List of figures", "bbox": [11, 557, 221, 584]},
    ])  # fmt: skip
    ref = SemanticElementRef(
        role="img", name="An image", bbox=(88, 771, 166, 789), screen_size=(1280, 800),
        anchors=(
            ("Readability Test", (0, 0, 1280, 800)),
            ("Single figure", (8, 310, 1272, 337)),
            ("List of figures", (8, 672, 1272, 699)),
        ),
    )  # fmt: skip
    # Each anchor moved by the least of the moves of its starts, ends and centres: the
    # headings' ink starts 3 px inside their blocks and ends hundreds of pixels before.
    assert page_shift(ref, read) == (1.0, 1.0, pytest.approx(3.0), pytest.approx(-115.0))
    # An anchor read at its recorded width still tells a sideways move.
    moved = ref.model_copy(update={"anchors": (("Single figure", (51, 310, 201, 337)),)})
    assert page_shift(moved, read) == (1.0, 1.0, pytest.approx(-40.0), pytest.approx(-115.0))
    # In a tree every anchor found votes on both axes (an element resized by a redesign
    # still moves with the page): the median of all three.
    assert page_shift(ref, tree_table) == (
        1.0, 1.0, pytest.approx(-524.0), pytest.approx(-115.0)
    )  # fmt: skip


def test_on_a_screenshot_a_block_anchor_read_as_half_its_width_moves_nothing_sideways() -> None:
    # A "trending" list recorded by its items' blocks (the page's width); the screen reads
    # one item's words over half that width. Its centre lies 296 px to the left of the
    # block's, but it starts where the block does: the page did not move.
    _, read = _tree_and_screen([
        {"id": "h", "role": "link", "name": "First look at Mad Max", "bbox": [52, 315, 675, 335]},
        {"id": "s", "role": "heading", "name": "Earth-like planets", "bbox": [9, 191, 458, 215]},
    ])  # fmt: skip
    ref = SemanticElementRef(
        role="heading", name="Earth-like planets", bbox=(8, 191.6, 1272, 213.6),
        screen_size=(1280, 800), anchors=(("First look at Mad Max", (48, 313.75, 1272, 335.75)),),
    )  # fmt: skip
    assert page_shift(ref, read) == (1.0, 1.0, pytest.approx(4.0), pytest.approx(0.25))


def test_on_a_screenshot_anchors_that_disagree_give_no_shift() -> None:
    # A byline's "Follow" button read where it was recorded. Of the recorded anchors, the
    # screen reads two once: a heading (where it was) and "Voodoo", which the page's header
    # also holds (the recorded one is inside a paragraph, read as one run with it).
    tree_table, read = _tree_and_screen([
        {"id": "v", "role": "link", "name": "Voodoo", "bbox": [144, 10, 201, 34]},
        {"id": "h", "role": "heading", "name": "Why CPU monitoring", "bbox": [300, 332, 837, 368]},
        {"id": "b", "role": "button", "name": "Follow", "bbox": [463, 215, 528, 238]},
    ])  # fmt: skip
    ref = SemanticElementRef(
        role="button", name="Follow", bbox=(464, 216, 526, 236), screen_size=(1280, 800),
        anchors=(("Voodoo", (380, 378, 444, 402)), ("Why CPU monitoring", (300, 328, 840, 366))),
    )  # fmt: skip
    assert page_shift(ref, read) == (1.0, 1.0, 0.0, 0.0)
    # Two that agree within a few pixels move it by their median; so does one alone.
    near = (("Voodoo", (146, 13, 203, 37)), ("Why CPU monitoring", (300, 328, 837, 364)))
    agree = ref.model_copy(update={"anchors": near})
    assert page_shift(agree, read) == (1.0, 1.0, pytest.approx(-1.0), pytest.approx(0.5))
    one = ref.model_copy(update={"anchors": (("Voodoo", (380, 378, 444, 402)),)})
    assert page_shift(one, read) == (1.0, 1.0, pytest.approx(-236.0), pytest.approx(-368.0))
    # In a tree the median of both stands (a redesign moves parts of a page apart).
    assert page_shift(ref, tree_table)[2:] == (pytest.approx(-120.5), pytest.approx(-182.5))
    # The reference scorer moves the box alike: the button agrees where it stands.
    config = MatchConfig()
    for table in (read, tree_table):
        fast, slow = score_table(ref, table, config), reference_scores(ref, table, config)
        for j, row in enumerate(fast.rows.tolist()):
            assert fast.scores[j] == pytest.approx(slow[row], abs=1e-9)


def _images(tops: list[float], shift: float = 0.0) -> CandidateTable:
    """A screenshot's table: an image "An image" at each of ``tops`` (moved down by
    ``shift``), under a heading "Gallery"."""
    b = TableBuilder("vision", "test")
    b.add("h", raw_role="text", role="heading", name="Gallery", bbox=(8, 10, 200, 40))
    for k, top in enumerate(tops):
        b.add(f"i{k}", raw_role="icon", role="img", name="An image",
              bbox=(47, top + shift, 125, top + shift + 24))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def test_twins_of_several_groups_are_ranked_on_the_whole_screen() -> None:
    # The third of a list of three images named alike, with two more in another list: the
    # reference recorded all five boxes; the screen draws no list titles to group them by.
    tops = [100.0, 120.0, 300.0, 320.0, 340.0]
    ref = SemanticElementRef(
        role="img", name="An image", bbox=(48, 341, 126, 363), screen_size=(1280, 800),
        occurrence=(2, 3), container_path=("Page", "List of <img>"),
        lookalikes=tuple((48.0, t + 1, 126.0, t + 23) for t in tops if t != 340.0),
    )  # fmt: skip
    table = _images(tops)
    assert screen_rank(ref, table) == (4, 5)
    from resolver.decide import decide

    config = MatchConfig()
    decision = decide(ref, table, config)
    assert decision.status == "accepted" and decision.best is not None
    assert decision.best.id == "i4"
    fast, slow = score_table(ref, table, config), reference_scores(ref, table, config)
    for j, row in enumerate(fast.rows.tolist()):
        assert fast.scores[j] == pytest.approx(slow[row], abs=1e-9)
    assert int(fast.rows[int(np.argmax(fast.scores))]) == table.ids.index("i4")
    # All moved by one shift of their own: still ranked.
    assert screen_rank(ref, _images(tops, shift=30.0)) == (4, 5)
    # One more or one fewer on the screen, or a namesake away from every recorded place:
    # no rank.
    assert screen_rank(ref, _images([*tops, 500.0])) is None
    assert screen_rank(ref, _images(tops[:-1])) is None
    assert screen_rank(ref, _images([100.0, 120.0, 300.0, 320.0, 600.0])) is None
    # A reference whose look-alikes are its group's only is ranked in its group, as before.
    alone = ref.model_copy(update={"lookalikes": ref.lookalikes[2:]})
    assert screen_rank(alone, table) is None


@given(st.lists(st.integers(0, 40), min_size=0, max_size=60))
def test_distinct_codes_is_numpy_unique(values: list[int]) -> None:
    codes = np.asarray(values, dtype=np.int32)
    found, places = distinct_codes(codes, 41)
    expected, inverse = np.unique(codes, return_inverse=True)
    assert found.tolist() == expected.tolist()
    assert places.tolist() == inverse.tolist()


@pytest.mark.parametrize("seed", range(10))
def test_a_query_built_again_on_a_table_is_the_query_built_on_a_fresh_one(seed: int) -> None:
    # The page shift and the usable container path a table remembers per reference are
    # what a table that never saw the reference computes.
    table = random_table(random.Random(seed), 200)
    twin = random_table(random.Random(seed), 200)
    config = MatchConfig()
    rng = random.Random(seed + 100)
    refs = [random_ref(rng, table) for _ in range(12)]
    warm = [Query.build(ref, table, config) for ref in refs]
    assert [Query.build(ref, table, config) for ref in refs] == warm
    for ref, query in zip(refs, warm, strict=True):
        assert query == Query.build(ref, random_table(random.Random(seed), 200), config)
        assert page_shift(ref, table) == page_shift(ref, twin)
        assert page_shift(ref, table, rescale=False) == page_shift(ref, twin, rescale=False)


@pytest.mark.parametrize("seed", range(12))
def test_scores_on_a_table_that_scored_other_refs_are_those_of_a_fresh_table(seed: int) -> None:
    # What a table keeps per reference (name look-ups, page shifts, usable container paths
    # and their scores per path) leaves every number as a table that never saw a reference.
    rng = random.Random(seed)
    n = rng.choice([50, 400])
    table = random_table(random.Random(seed), n)
    config = MatchConfig()
    refs = [random_ref(rng, table) for _ in range(16)]
    refs += [ref.model_copy(update={"bbox": None}) for ref in refs[:4]]
    warm = [score_table(ref, table, config) for ref in refs + refs]
    for ref, got in zip(refs + refs, warm, strict=True):
        want = score_table(ref, random_table(random.Random(seed), n), config)
        assert_identical(got, want)


@pytest.mark.parametrize("seed", range(12))
def test_a_ranking_shows_each_row_s_own_signals(seed: int) -> None:
    # The box, name and container agreement a ranking shows are those its seeds and chunks were
    # scored with: they equal what the same rows give scored on their own on a fresh table.
    rng = random.Random(seed)
    n = rng.choice([50, 400, 1500])
    table = random_table(random.Random(seed), n)
    config = MatchConfig()
    for _ in range(12):
        ref = random_ref(rng, table)
        got = score_table(ref, table, config)
        fresh = random_table(random.Random(seed), n)
        want = scored_at(ref, fresh, config, got.rows.tolist())
        assert list(got.signals) == list(want.signals)
        for name, values in want.signals.items():
            assert got.signals[name].tolist() == values.tolist(), name


@given(
    st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 0.9, 1.0, float("nan")]), max_size=3000),
    st.integers(min_value=1, max_value=40),
    st.randoms(use_true_random=False),
)
@settings(max_examples=60, deadline=None)
def test_best_first_is_the_full_sort_cut(
    values: list[float], keep: int, rng: random.Random
) -> None:
    """The partial sort picks and orders exactly the rows the full sort puts first, ties
    (many: few distinct scores) broken by row, NaN last."""
    scores = np.array(values, dtype=np.float64)
    rows = np.array(rng.sample(range(10 * len(values) + 1), len(values)), dtype=np.intp)
    expected = np.lexsort((rows, -scores))[:keep]
    assert best_first(scores, rows, keep).tolist() == expected.tolist()


def test_best_first_on_long_rankings_of_few_distinct_scores() -> None:
    rng = np.random.default_rng(3)
    for n, keep in ((600, 5), (5000, 31), (20000, 1)):
        scores = rng.choice([0.2, 0.5, 0.8, 0.8001, 1.0], size=n)
        scores[rng.integers(0, n, size=3)] = np.nan
        rows = rng.permutation(3 * n)[:n].astype(np.intp)
        assert best_first(scores, rows, keep).tolist() == (
            np.lexsort((rows, -scores))[:keep].tolist()
        )


@pytest.mark.parametrize("seed", range(5))
def test_box_agreement_of_one_box_is_that_of_the_box_given_per_row(seed: int) -> None:
    # One reference box takes a shortcut (its own floor on the sizes); the same box given
    # per row, as a batch gives it, takes the general path: both agree to the last bit,
    # with unknown rows, flat boxes and a flat reference among them.
    rng = np.random.default_rng(seed)
    boxes = rng.uniform(0, 400, size=(40, 4))
    boxes[:, 2:] = boxes[:, :2] + rng.uniform(0, 60, size=(40, 2))
    boxes[::7] = np.nan
    boxes[3, 2] = boxes[3, 0]  # a row with no width
    geo = Geometry.of(boxes)
    for ref in ((10.0, 20.0, 70.0, 44.0), (30.0, 30.0, 30.0, 50.0), tuple(boxes[5].tolist())):
        diag = box_diagonal(ref)  # type: ignore[arg-type]
        one = box_agreement(ref, diag, geo, 0.3)  # type: ignore[arg-type]
        rows = tuple(np.full(len(boxes), v) for v in ref)
        each = box_agreement(rows, np.full(len(boxes), diag), geo, 0.3)  # type: ignore[arg-type]
        assert np.array_equal(one, each)


def test_the_readings_of_a_box_are_the_shifted_box_then_the_other_readings() -> None:
    from resolver.table import TableBuilder

    b = TableBuilder("vision", "test")
    b.add("0", raw_role="text", name="Docs", bbox=(100, 100, 160, 120))
    table = b.build(screen_size=(1280.0, 800.0), names_read=True)
    same = SemanticElementRef(role="link", name="Docs", bbox=(100, 100, 160, 120),
                              screen_size=(1280, 800))  # fmt: skip
    assert box_readings_of(same, table) == ((100, 100, 160, 120),)
    # A wider window: rescaled (a zoom), as recorded, and as recorded with the page re-centred.
    wide = same.model_copy(update={"screen_size": (1600, 1000)})
    assert box_readings_of(wide, table) == (
        (80.0, 80.0, 128.0, 96.0), (100, 100, 160, 120), (-60.0, 100, 0.0, 120),
    )  # fmt: skip
    assert box_readings_of(same.model_copy(update={"bbox": None}), table) == ()


def _style_table() -> CandidateTable:
    """Named containers and named ancestors of other roles (a heading, a button, a link)."""
    b = TableBuilder("a11y", "test")
    main = b.add("m", raw_role="main", name="")
    nav = b.add("n", raw_role="navigation", name="Site menu", parent=main)
    link = b.add("l", raw_role="link", name="Products", parent=nav)
    b.add("lt", raw_role="text", name="Products", parent=link)
    group = b.add("g", raw_role="group", name="Account settings", parent=main)
    button = b.add("b", raw_role="button", name="Save changes", parent=group)
    b.add("bt", raw_role="img", name="disk icon", parent=button)
    heading = b.add("h", raw_role="heading", name="Profile 2", parent=group)
    b.add("ht", raw_role="text", name="Profile 2", parent=heading)
    return b.build()


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(["Site menu", "Products", "Account settings", "Save changes",
                                  "profile 7", "PRODUCTS", "Nothing alike", "[main]", "Site"]),
                max_size=4).map(tuple))  # fmt: skip
def test_a_paths_style_is_read_from_both_sides_agreements(path: tuple[str, ...]) -> None:
    """Whether a recorded path reads as named ancestors: asked of the named ancestors only
    when some entry is not a container entry as it was, the answer is the one both sides'
    agreements give."""
    from resolver.index import index_of
    from resolver.matcher import STYLE_AGREES, _ancestor_style

    table = _style_table()
    index = index_of(table)
    both = [(index.agreement(e, False), index.agreement(e, True)) for e in path]
    to_containers = sum(c >= STYLE_AGREES and c > a for c, a in both)
    to_ancestors = sum(a >= STYLE_AGREES and a > c for c, a in both)
    assert _ancestor_style(path, _style_table()) == (to_ancestors > to_containers)


def _comments(offset: float) -> Observation:
    """Six comments 200 px apart, each a unique text and a "Follow" link below it, drawn
    ``offset`` px down (negative: the page scrolled), and a frame drawn with no area at the
    page's corner, which stays there as the page scrolls."""
    children: list[dict[str, object]] = [
        {"id": "frame", "role": "Iframe", "name": "tracker.html", "bbox": [0, 0, 0, 0]}
    ]
    for k in range(6):
        top = 100 + 200 * k + offset
        children.append({"id": f"c{k}", "role": "paragraph", "name": f"Comment {k} body",
                         "bbox": [8, top, 600, top + 17]})  # fmt: skip
        children.append({"id": f"f{k}", "role": "link", "name": "Follow",
                         "bbox": [50, top + 30, 96, top + 47]})  # fmt: skip
    tree = {"id": "r", "role": "document", "name": "Blog", "children": children}
    return Observation(accessibility_tree=tree, screen_size=(1280, 800))


def test_an_anchor_drawn_with_no_area_does_not_vote_on_the_page_s_shift() -> None:
    # Recorded 600 px down the page, replayed at its top: the comment moved 600 px down the
    # screen, the hidden frame not at all. Counting the frame, the median (300 px) put the
    # recorded box between two comments' "Follow" links.
    scrolled = _comments(-600.0).candidates("a11y")
    at_top = _comments(0.0)
    ref = SemanticElementRef(
        role="link", name="Follow", bbox=scrolled.box(scrolled.ids.index("f4")),
        screen_size=(1280, 800),
        anchors=(("Comment 4 body", scrolled.box(scrolled.ids.index("c4"))),
                 ("tracker.html", (0.0, 0.0, 0.0, 0.0))),
    )  # fmt: skip
    assert page_shift(ref, at_top.candidates("a11y")) == (1.0, 1.0, 0.0, pytest.approx(600.0))
    assert resolve_element(ref, at_top, sources=("a11y",)) == "a11y:f4"
