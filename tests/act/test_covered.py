"""Entries something else covers on a live page: a modal's backdrop over the page, a
banner over one button; not judged without a selector or outside the viewport."""

from __future__ import annotations

from typing import Any

from live_browser import ROOT

from resolver.act import session_for
from resolver.act.covered import covered_entries

PAGE = (ROOT / "fixtures" / "live" / "rerender.html").as_uri()
BANNER = """data:text/html,<body style="margin:0">
<button id="a" style="position:absolute;left:10px;top:10px">Under</button>
<button id="b" style="position:absolute;left:10px;top:60px">Free</button>
<button id="c" style="position:absolute;left:10px;top:2000px">Far below</button>
<div style="position:fixed;left:0;top:0;width:300px;height:40px;background:gray">Cookies</div>
</body>"""


def test_a_modal_covers_the_page_but_not_itself(page: Any) -> None:
    page.goto(PAGE)
    catalog = session_for(page).refresh()
    assert covered_entries(page, catalog.entries) == []
    page.goto(PAGE + "?do=modal")
    catalog = session_for(page).refresh()
    covered = covered_entries(page, catalog.entries)
    names = {entry.index: entry.name for entry in catalog.entries}
    assert "Close" not in {names[i] for i in covered}
    assert {"Save", "Sort", "Delete"} <= {names[i] for i in covered}
    # The catalog's text says so too (the session keeps what its last refresh found).
    session = session_for(page)
    assert session.covered == frozenset(covered)
    text = session.render()
    assert "button: Save [covered]" in text and "button: Close [covered]" not in text
    assert "button: Close" in text


def test_a_banner_over_one_button_and_what_is_not_judged(page: Any) -> None:
    page.goto(BANNER)
    catalog = session_for(page).refresh()
    by_name = {entry.name: entry for entry in catalog.entries}
    assert covered_entries(page, catalog.entries) == [by_name["Under"].index]
    bare = [e.model_copy(update={"selectors": ()}) for e in catalog.entries]
    assert covered_entries(page, bare) == []  # no selector: not judged
    by_xpath = [e.model_copy(update={"selectors": tuple(x for x in e.selectors if x[0] == "xpath")})
                for e in catalog.entries]  # fmt: skip
    assert covered_entries(page, by_xpath) == [by_name["Under"].index]
    assert covered_entries(page, [by_name["Far below"]]) == []  # outside the viewport


FRAMED = """data:text/html,<body style="margin:0">
<iframe title="Card" style="position:absolute;left:0;top:0;width:300px;height:80px;border:0"
  srcdoc="<body style='margin:0'><button style='margin:20px'>Pay now</button></body>"></iframe>
<iframe title="Notes" style="position:absolute;left:0;top:200px;width:300px;height:80px;border:0"
  srcdoc="<body style='margin:0'><button style='margin:20px'>Add note</button></body>"></iframe>
<div style="position:fixed;left:0;top:0;width:400px;height:100px;background:gray">Backdrop</div>
</body>"""


def test_an_entry_in_a_frame_is_judged_by_its_frame_element(page: Any) -> None:
    # A backdrop drawn over an embedded form: the form's button is covered, the other
    # frame's is not (each judged at its centre, by the frame element in the top document).
    page.goto(FRAMED)
    page.frame_locator("iframe >> nth=1").get_by_text("Add note").wait_for()
    session = session_for(page)
    catalog = session.refresh()
    by_name = {entry.name: entry for entry in catalog.entries}
    assert not by_name["Pay now"].selectors  # (a frame's selectors are not the catalog's)
    assert session.covered == frozenset({by_name["Pay now"].index})
    assert covered_entries(page, catalog.entries) == []  # without the frames: not judged
