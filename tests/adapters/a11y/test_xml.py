"""The shared XML reading: pre-order rows of an lxml tree and coordinate pairs."""

import pytest

from resolver import InvalidObservationError
from resolver.adapters.a11y import parse_xml
from resolver.adapters.a11y._xml import local_name, pair, xml_rows
from resolver.table import TableBuilder

XML = "<root><a><b/><!-- note --><c/></a><d/></root>"


def test_xml_rows_parents_and_paths() -> None:
    elements, parents, paths = xml_rows(parse_xml(XML), TableBuilder("a11y", "test"))
    assert [e.tag for e in elements] == ["root", "a", "b", "c", "d"]
    assert parents == [-1, 0, 1, 1, 0]
    assert paths == ["0", "0.0", "0.0.0", "0.0.1", "0.1"]


def test_xml_rows_refuses_more_elements_than_rows() -> None:
    root = parse_xml(XML)
    with pytest.raises(InvalidObservationError, match="more than 4 nodes; raise max_nodes"):
        xml_rows(root, TableBuilder("a11y", "test", max_rows=4))
    # an element that makes no row (uiautomator's <hierarchy>) is spare
    assert len(xml_rows(root, TableBuilder("a11y", "test", max_rows=4), spare=1)[0]) == 5


def test_pair_and_local_name() -> None:
    assert pair("(10, 20)") == (10.0, 20.0)
    assert pair("[1.5,2e1]") == (1.5, 20.0)
    assert pair("(x, 1)") is None and pair(None) is None
    assert local_name("{uri:x}button") == "button" and local_name("button") == "button"
