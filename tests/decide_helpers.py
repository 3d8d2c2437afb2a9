"""Tables the decision's tests share: a dialog's buttons, a screenshot, texts read on one, a
renamed link's twin, reordered links of one name; and a check that a rule takes a row."""

from resolver import MatchConfig, SemanticElementRef
from resolver.adapters._common import XPATH_KEYS
from resolver.adapters.vision.table import LABEL_NAMED_ROLES
from resolver.decide import decide
from resolver.table import CandidateTable, TableBuilder


def assert_taken(ref: SemanticElementRef, table: CandidateTable, rule: str, row: str) -> None:
    """``ref`` is answered on ``table`` by ``rule``, with the row ``row``."""
    decision = decide(ref, table, MatchConfig())
    assert decision.status == "accepted" and decision.rule == rule
    assert decision.best is not None and decision.best.id == row


def texts_read(*rows: tuple[str, str, str, tuple[float, float, float, float]]) -> CandidateTable:
    """A screenshot's table of texts read: each row ``(id, role, name, box)``."""
    b = TableBuilder("vision", "test")
    for key, role, name, box in rows:
        b.add(key, raw_role="text", role=role, name=name, bbox=box)
    return b.build(screen_size=(1280.0, 800.0), names_read=True)


def _buttons() -> CandidateTable:
    b = TableBuilder("a11y", "test")
    root = b.add("dlg", raw_role="dialog", name="Settings", bbox=(0, 0, 600, 500))
    ok = b.add("ok", raw_role="button", name="OK", parent=root, bbox=(500, 160, 570, 190))
    b.add("okt", raw_role="StaticText", name="OK", parent=ok, bbox=(510, 165, 560, 185))
    b.add("ok2", raw_role="button", name="OK", parent=root, bbox=(500, 400, 570, 430))
    link = b.add("l", raw_role="link", name="Help", parent=root, bbox=(10, 10, 60, 30))
    b.add("li", raw_role="img", name="Help", parent=link, bbox=(10, 10, 30, 30))
    return b.build()


def _screenshot(b: TableBuilder, window: str = "") -> CandidateTable:
    """The table of a screenshot, declaring what the vision source declares of itself; a
    ``window`` ID suffix (``@600,150,400x300``) makes it a hint window's."""
    region = None
    if window:
        left, top, size = window[1:].split(",")
        width, height = size.split("x")
        region = (float(left), float(top), float(left) + float(width), float(top) + float(height))
    return b.build(
        screen_size=(1280.0, 800.0), window=region, groups_by_title=True, names_read=True,
        label_named_roles=LABEL_NAMED_ROLES,
    )  # fmt: skip


def _torn(
    renamed: str,
    *,
    xpath: str = "/html[1]/body[1]/main[1]/p[2]/a[1]",
    twin: str = "Friday deals for books",
    right: int = 260,
) -> CandidateTable:
    """A link renamed ``renamed`` at the top (``right`` its right edge), under ``xpath``; a
    link named ``twin`` (the recorded name) far below, among the texts recorded next to the
    target."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Deals", bbox=(0, 0, 1280, 2000))
    b.add("r", raw_role="link", name=renamed, parent=root, bbox=(8, 100, right, 117),
          xpath=xpath)  # fmt: skip
    for k in range(12):
        b.add(f"f{k}", raw_role="StaticText", name=f"Paragraph {k} of the page", parent=root,
              bbox=(8, 200 + 40 * k, 600, 217 + 40 * k))  # fmt: skip
    b.add("a", raw_role="StaticText", name="Books of the week", parent=root,
          bbox=(8, 880, 220, 897))  # fmt: skip
    b.add("t", raw_role="link", name=twin, parent=root,
          bbox=(8, 900, 220, 917), xpath="/html[1]/body[1]/main[1]/p[7]/a[1]")  # fmt: skip
    b.add("c", raw_role="StaticText", name="Shipping is free", parent=root,
          bbox=(8, 920, 220, 937))  # fmt: skip
    return b.build(screen_size=(1280.0, 800.0))


def reordered_links(hrefs: tuple[str, ...], gap: float = 40.0) -> CandidateTable:
    """Three "link" links, one per paragraph ``gap`` px apart, linking to ``hrefs`` from top
    to bottom; an accessibility tree that knows each link's XPath and address."""
    b = TableBuilder("a11y", "test", id_columns=("xpath", "href"))
    root = b.add("0", raw_role="RootWebArea", name="Links")
    for k, href in enumerate(hrefs):
        y = 100 + gap * k
        b.add(f"a{k}", raw_role="link", name="link", parent=root, bbox=(8, y, 40, y + 17),
              xpath=f"/html[1]/body[1]/p[{k + 1}]/a[1]", href=href)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1280.0, 800.0), id_keys=XPATH_KEYS)


def orders_list(first: int, count: int) -> CandidateTable:
    """A list of orders as a virtualised list draws it: ``count`` unnamed list items from
    order ``first`` on, in the same places whatever the first, each with a "Delete" button."""
    b = TableBuilder("a11y", "test", id_columns=("xpath",))
    root = b.add("doc", raw_role="RootWebArea", name="Orders", bbox=(0, 0, 1000, 700))
    items = b.add("l", raw_role="list", name="Orders", parent=root, bbox=(8, 40, 440, 340))
    for k in range(count):
        top, order = 40 + 30 * k, first + k
        item = b.add(f"i{order}", raw_role="listitem", name="", parent=items,
                     bbox=(8, top, 440, top + 30))  # fmt: skip
        b.add(f"o{order}", raw_role="StaticText", name=f"Order {order}", parent=item,
              bbox=(16, top + 8, 80, top + 22))  # fmt: skip
        b.add(f"d{order}", raw_role="button", name="Delete", parent=item,
              bbox=(380, top + 5, 430, top + 25),
              xpath=f"/html[1]/body[1]/div[1]/div[1]/div[{k + 1}]/button[1]")  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1000.0, 700.0))


def orders_grid(
    first: int, count: int, cells: str = "right", source: str = "a11y", repriced: int = 0
) -> CandidateTable:
    """A data grid of orders as a virtualised grid draws it: ``count`` rows from order
    ``first`` on, in the same places whatever the first, each named by the texts of its
    cells in view: "Order N" (pinned), then, scrolled ``"right"``, the order's amount, its
    status, carrier, tracking code and note (every order's status, carrier and note alike)
    and its Delete button; ``"wide"``, its customer and city before those; ``"left"``, its
    customer and city alone, and no button. As the ``"dom"`` source reads it: the document
    unnamed, a row named by its texts without the button's. Order ``repriced``'s amount
    reads "EUR 999.50"."""
    b = TableBuilder(source, "test", id_columns=("xpath",))
    title = "Orders" if source == "a11y" else ""
    root = b.add("doc", raw_role="RootWebArea", name=title, bbox=(0, 0, 1000, 700))
    grid = b.add("g", raw_role="grid", name="Orders", parent=root, bbox=(8, 40, 648, 360))
    for k in range(count):
        top, order = 70 + 30 * k, first + k
        who = [f"Customer {'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[order % 26]}", "Porto"]
        amount = "EUR 999.50" if order == repriced else f"EUR {12 + order * 37 % 480}.50"
        shown = [amount, "Shipped", "Parcel Line",
                 f"TRK-{order * 7919:X}", "Call first"]  # fmt: skip
        texts = [f"Order {order}"] + {"right": shown, "wide": who + shown, "left": who}[cells]
        button = cells != "left"
        named = texts + ["Delete"] * (button and source == "a11y")
        row = b.add(f"r{order}", raw_role="row", name=" ".join(named),
                    parent=grid, bbox=(8, top, 648, top + 30))  # fmt: skip
        for c, text in enumerate(texts):
            b.add(f"c{order}.{c}", raw_role="gridcell", name=text, parent=row,
                  bbox=(8 + 60 * c, top, 68 + 60 * c, top + 30))  # fmt: skip
        if button:
            path = f"/html[1]/body[1]/div[1]/div[1]/div[{k + 2}]/div[10]/button[1]"
            b.add(f"d{order}", raw_role="button", name="Delete", parent=row,
                  bbox=(580, top + 5, 630, top + 25), xpath=path)  # fmt: skip
    return b.build(coord_space="css_px", screen_size=(1000.0, 700.0))
