"""Speed of the DOM source on real ~1 MB pages, beside simpler alternatives.

Not part of the default test run (``testpaths = ["tests"]``). Run with::

    pytest benchmarks/dom/test_bench_dom.py --benchmark-only \
        --benchmark-columns=min,median,mean,rounds --benchmark-sort=name

Cases (each on the readability corpus pages of about 1 MB, skipped when it is absent):

- ``build``: ``Observation(dom_html=...).candidates("dom")``, parse to finished table;
- ``resolve``: ``resolve(ref, obs, sources=("dom",))`` once the table is cached;
- ``lexbor_floor``: the floor, a bare Lexbor parse and walk reading every node's tag and
  attributes (:func:`benchmarks.dom.speed.lexbor_floor`); build / floor is the overhead;
- ``bs4_naive``: BeautifulSoup (lxml tree builder) and a Python loop that assigns roles by
  tag and names by ``get_text()``: no styles, no accname, no hidden rules, libxml2's tree;
- ``naive_resolve``: the seed's additive scoring loop over that list.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from benchmarks.dom.corpora import corpora_dir  # noqa: E402
from resolver import Observation, SemanticElementRef, resolve  # noqa: E402

CORPORA = corpora_dir()
PAGES = ("wikipedia-2", "guardian-1", "yahoo-1")
_TAG_ROLES = {"a": "link", "button": "button", "input": "textbox", "select": "combobox",
              "textarea": "textbox", "h1": "heading", "h2": "heading", "h3": "heading",
              "img": "img", "li": "listitem", "nav": "navigation"}  # fmt: skip

pytestmark = pytest.mark.skipif(CORPORA is None, reason="../shared/corpora is not here")


def _html(page: str) -> bytes:
    assert CORPORA is not None
    return (CORPORA / "readability-pages" / "pages" / page / "source.html").read_bytes()


def _ref(html: bytes) -> SemanticElementRef:
    """A link from the middle of the page, as a recorder would have stored it."""
    table = Observation(dom_html=html).candidates("dom")
    links = [i for i in range(len(table)) if table.roles[i] == "link" and table.names[i]]
    row = links[len(links) // 2]
    return SemanticElementRef(
        role="link", name=table.names[row], container_path=table.containers[row]
    )


@pytest.mark.parametrize("page", PAGES)
def test_build(benchmark: Any, page: str) -> None:
    html = _html(page)
    table = benchmark(lambda: Observation(dom_html=html).candidates("dom"))
    assert len(table) > 0


@pytest.mark.parametrize("page", PAGES)
def test_resolve(benchmark: Any, page: str) -> None:
    html = _html(page)
    obs = Observation(dom_html=html)
    obs.candidates("dom")
    ref = _ref(html)

    def run() -> str | None:
        try:
            return resolve(ref, obs, sources=("dom",)).executor_id
        except Exception:
            return None

    benchmark(run)


@pytest.mark.parametrize("page", PAGES)
def test_lexbor_floor(benchmark: Any, page: str) -> None:
    from benchmarks.dom.speed import lexbor_floor
    from resolver.adapters.dom.parse import decode_html

    text = decode_html(_html(page))
    assert benchmark(lambda: lexbor_floor(text)) > 0


def _bs4_rows(html: bytes) -> list[dict[str, str]]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "lxml")
    rows = []
    for element in soup.find_all(True):
        role = _TAG_ROLES.get(element.name)
        if role is None:
            continue
        name = element.get("aria-label") or element.get("alt") or element.get_text(" ", True)
        rows.append({"role": role, "name": str(name)[:200]})
    return rows


@pytest.mark.parametrize("page", PAGES)
def test_bs4_naive(benchmark: Any, page: str) -> None:
    html = _html(page)
    rows = benchmark(lambda: _bs4_rows(html))
    assert rows


@pytest.mark.parametrize("page", PAGES)
def test_naive_resolve(benchmark: Any, page: str) -> None:
    html = _html(page)
    rows = _bs4_rows(html)
    ref = _ref(html)

    def run() -> int:
        best, best_score = -1, -1.0
        for i, row in enumerate(rows):
            score = 10.0 * (row["role"] == ref.role) + 10.0 * (row["name"] == ref.name)
            if score > best_score:
                best, best_score = i, score
        return best

    benchmark(run)
