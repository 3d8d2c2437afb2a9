"""Parsing: HTML5 tree shape, encodings, and hostile input (typed errors, bounded time)."""

from __future__ import annotations

import pytest

from resolver import LimitExceededError, Limits, Observation
from resolver.adapters.dom import analyze, parse
from resolver.adapters.dom.parse import MATHML, MAX_DOM_DEPTH, SVG, decode_html, parse_html
from resolver.errors import InvalidObservationError


def _paths(html: str | bytes) -> list[str]:
    return analyze(html).paths.xpath


def test_html5_tree_has_implied_tbody_like_browsers() -> None:
    paths = _paths("<table><tr><td>x</td></tr></table>")
    assert "/html[1]/body[1]/table[1]/tbody[1]/tr[1]/td[1]" in paths


def test_misnested_formatting_is_repaired_by_the_adoption_agency() -> None:
    # <b>1<p>2</b>3</p>: the HTML5 parser moves the <p> out of <b> and clones <b> into it.
    paths = _paths("<b>1<p>2</b>3</p>")
    assert "/html[1]/body[1]/p[1]/b[1]" in paths
    assert "/html[1]/body[1]/b[1]" in paths


def test_template_content_and_comments_are_not_elements() -> None:
    paths = _paths("<template><button>x</button></template><!-- <a> --><p>y</p>")
    assert not any("button" in p for p in paths)
    assert "/html[1]/body[1]/p[1]" in paths


def test_noscript_content_is_text_unless_scripting_is_off() -> None:
    page = "<head><noscript><img src=p></noscript><style>a{}</style></head><p>x</p>"
    on = parse_html(page)
    assert on.scripting and on.tags == ["html", "head", "noscript", "style", "body", "p"]
    assert on.content[2] == ["<img src=p>"]
    # HTML §13.2.6.4.5 "in head noscript": an img ends the noscript and the head, so the
    # head's later style moves into the body (as in a browser with JavaScript disabled).
    off = parse_html(page, scripting=False)
    assert not off.scripting
    assert off.tags == ["html", "head", "noscript", "body", "img", "style", "p"]
    assert off.parent[off.tags.index("style")] == off.tags.index("body")


def test_svg_elements_get_browser_valid_xpaths() -> None:
    analysis = analyze("<svg><g><path/></g></svg>")
    assert "/html[1]/body[1]/*[local-name()='svg'][1]/*[local-name()='g'][1]" in (
        analysis.paths.xpath
    )
    assert "/html[1]/body[1]/svg[1]/g[1]/path[1]" in analysis.paths.layout


def test_namespaces_switch_at_svg_and_math_and_back_in_integration_points() -> None:
    doc = parse_html(
        "<svg><g></g><foreignObject><div></div></foreignObject></svg>"
        "<math><mi><b></b></mi><mrow></mrow></math>"
    )
    spaces = dict(zip(doc.tags, doc.namespace, strict=True))
    assert spaces["svg"] == spaces["g"] == spaces["foreignObject"] == SVG
    assert spaces["math"] == spaces["mi"] == spaces["mrow"] == MATHML
    assert spaces["div"] == spaces["b"] == spaces["body"] == 0


def test_the_flat_document_mirrors_the_tree() -> None:
    doc = parse_html("<p id=a>one <b id=b disabled>two</b> three</p><p id=a>dup</p>")
    p, b = doc.tags.index("p"), doc.tags.index("b")
    assert doc.parent[b] == p
    assert doc.content[p] == ["one ", b, " three"]
    assert doc.attrs[b] == {"id": "b", "disabled": ""}
    assert doc.by_id == {"a": p, "b": b}  # the first element with an id


def test_too_many_elements_is_a_typed_error() -> None:
    with pytest.raises(LimitExceededError, match="more than 10 elements"):
        parse_html("<p>x</p>" * 20, limits=Limits(max_elements=10))


def _refusal(page: str | bytes, limits: Limits) -> LimitExceededError:
    """The error the DOM source raises for ``page`` under ``limits`` (it must raise one)."""
    with pytest.raises(LimitExceededError) as info:
        Observation(dom_html=page, limits=limits).candidates("dom")
    return info.value


def test_max_html_chars_comes_from_the_observation_limits() -> None:
    page = "<p>" + "x" * 193 + "</p>"
    assert len(page) == 200
    error = _refusal(page, Limits(max_html_chars=100))
    assert "200 characters" in error.message and "max_html_chars=100" in error.message
    assert "Limits(max_html_chars=...)" in error.message
    assert "--limit max_html_chars=N" in error.message
    assert error.evidence.details == {"limit": "max_html_chars", "allowed": 100, "found": 200}
    assert Observation(dom_html=page).candidates("dom").roles[0] == "paragraph"
    at_the_limit = Observation(dom_html=page, limits=Limits(max_html_chars=200))
    assert at_the_limit.candidates("dom").roles[0] == "paragraph"


def test_bytes_far_over_max_html_chars_are_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = b"<p>" + b"x" * 993 + b"</p>"
    # Within four bytes a character of the limit: decoded, then counted.
    assert _refusal(page, Limits(max_html_chars=300)).evidence.details["found"] == 1000

    def no_decoding(data: bytes) -> tuple[str, bool]:
        raise AssertionError("decoded")

    monkeypatch.setattr(parse, "_decode", no_decoding)
    error = _refusal(page, Limits(max_html_chars=100))
    assert "more than 100 characters" in error.message and "1,000 bytes" in error.message


def test_max_elements_comes_from_the_observation_limits() -> None:
    page = "<button>x</button>" * 7  # html, head, body and 7 buttons: 10 elements
    table = Observation(dom_html=page, limits=Limits(max_elements=10)).candidates("dom")
    assert table.roles == ("button",) * 7
    error = _refusal(page + "<button>x</button>", Limits(max_elements=10))
    assert "more than 10 elements" in error.message and "max_elements=10" in error.message
    assert "--limit max_elements=N" in error.message
    assert error.evidence.details["limit"] == "max_elements"
    assert len(Observation(dom_html=page * 20).candidates("dom")) == 140  # the default


def test_max_depth_comes_from_the_observation_limits() -> None:
    page = "<div>" * 50 + "<button>deep</button>" + "</div>" * 50
    error = _refusal(page, Limits(max_depth=20))
    assert "max_depth=20" in error.message and "--limit max_depth=N" in error.message
    assert error.evidence.details == {"limit": "max_depth", "allowed": 20, "found": 51}
    assert Observation(dom_html=page).candidates("dom").roles == ("button",)
    shallow = "<div>" * 15 + "<button>deep</button>" + "</div>" * 15
    limited = Observation(dom_html=shallow, limits=Limits(max_depth=20))
    assert limited.candidates("dom").roles == ("button",)


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (b"\xef\xbb\xbfcaf\xc3\xa9", "café"),
        (b"caf\xe9", "café"),  # not UTF-8: windows-1252, the web default
        (b'<meta charset="iso-8859-2">\xb1', '<meta charset="iso-8859-2">ą'),
        (b"\xff\xfe" + "hé".encode("utf-16-le"), "hé"),
        (b'<meta charset="utf-16">x', '<meta charset="utf-16">x'),
        (b'<meta charset="no-such">\xc3\xa9', '<meta charset="no-such">é'),
    ],
)
def test_decoding_follows_the_encoding_sniffing_rules(data: bytes, text: str) -> None:
    assert decode_html(data) == text


def test_broken_utf8_and_lone_surrogates_do_not_crash() -> None:
    table = Observation(dom_html=b"<button>ok\xc3\x28\xa0</button>").candidates("dom")
    assert table.roles == ("button",)
    table = Observation(dom_html="<button>a\ud800b</button>").candidates("dom")
    assert table.roles == ("button",)


def test_nul_bytes_and_empty_pages() -> None:
    assert Observation(dom_html="<p>a\x00b</p>").candidates("dom").roles[0] == "paragraph"
    assert len(Observation(dom_html="").candidates("dom")) == 0


def test_binary_garbage_is_a_typed_error() -> None:
    garbage = bytes(range(256)) * 64
    with pytest.raises(InvalidObservationError):
        Observation(dom_html=garbage).candidates("dom")


def test_control_characters_are_counted_in_text_with_lone_surrogates() -> None:
    mostly_controls = "\ud800" + "\x01\x02\x1f" * 100 + "<p>x</p>"
    with pytest.raises(InvalidObservationError, match="control characters"):
        Observation(dom_html=mostly_controls).candidates("dom")
    few = "<p>\ud800x\x01" + "\u00e9" * 50 + "</p>"  # 1 in 60 characters: still a page
    assert Observation(dom_html=few).candidates("dom").roles[0] == "paragraph"


@pytest.mark.timeout(5)
def test_fifty_megabyte_page_is_refused_quickly() -> None:
    page = "<div>" + "x" * 50_000_000 + "</div>"
    with pytest.raises(InvalidObservationError, match="characters"):
        Observation(dom_html=page).candidates("dom")


@pytest.mark.timeout(5)
@pytest.mark.parametrize("tag", ["div", "span", "section"])
def test_hundred_thousand_deep_nesting_is_refused_in_bounded_time(tag: str) -> None:
    page = f"<{tag}>" * 100_000 + "x" + f"</{tag}>" * 100_000
    with pytest.raises(InvalidObservationError, match="max_depth=4096"):
        Observation(dom_html=page).candidates("dom")


def test_deep_but_readable_nesting_is_flattened_like_blink() -> None:
    page = "<div>" * 2000 + "<button>deep</button>" + "</div>" * 2000
    table = Observation(dom_html=page).candidates("dom")
    assert table.roles == ("button",) and table.names == ("deep",)
    assert table.ids[0].count("/") <= MAX_DOM_DEPTH + 2


def test_unclosed_list_items_do_not_count_as_nesting() -> None:
    page = "<ul>" + "<li>item" * 20_000 + "</ul>"
    doc = parse_html(page)
    assert doc.tags.count("li") == 20_000


def _reference_steps(data: bytes) -> list[int]:
    """The depth steps spelled out with a regex: +1 for ``<name``, -1 for ``</name``, for
    every name (the longest run of ``[a-z0-9:-]`` after a letter) not exempt."""
    import re

    steps = []
    for close, name in re.findall(rb"<(/?)([a-z][a-z0-9:-]*)", data):
        if name.decode() not in parse._NO_DEPTH:
            steps.append(-1 if close else 1)
    return steps


@pytest.mark.parametrize(
    "data",
    [
        b"", b"<", b"</", b"<a", b"</a", b"<br>", b"<brx>", b"<basefont>", b"<basefonts>",
        b"<colgroup></colgroup>", b"<p>x</p><p-x>", b"<1>", b"</1", b"<a1:b>", b"<<div",
        b"<div><span></span></div><img><li><ul></ul>", b"< div>", b"<-x><:y>", b"<optgroupx",
    ],
)  # fmt: skip
def test_depth_steps_read_every_tag_name(data: bytes) -> None:
    assert max(map(len, parse._NO_DEPTH)) <= parse._PACKED_WIDTH
    assert parse._depth_steps(data).tolist() == _reference_steps(data)


@pytest.mark.parametrize("chunk", [7, 1 << 18])
def test_depth_steps_agree_with_the_reference_on_a_long_page(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    monkeypatch.setattr(parse, "_DEPTH_CHUNK", chunk)  # (tags are read in chunks)

    rng = random.Random(7)
    names = [*sorted(parse._NO_DEPTH), "div", "span", "a", "section", "x-y", "basefontz"]
    parts = []
    for _ in range(5000):
        slash, name = "/" * rng.randint(0, 1), rng.choice(names)
        end = rng.choice([">", " ", "/>", ""])
        parts.append(f"<{slash}{name}{end}" + "text" * rng.randint(0, 2))
    data = "".join(parts).encode()
    assert parse._depth_steps(data).tolist() == _reference_steps(data)


@pytest.mark.timeout(2)
def test_entity_bombs_are_not_expanded() -> None:
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        + "".join(f'<!ENTITY lol{i} "{"&lol" + str(i - 1) + ";" * 1 * 10}">' for i in range(1, 10))
        + ']><html><body><button>&lol9;</button><a href="x">&amp;&lt;</a></body></html>'
    )
    table = Observation(dom_html=bomb).candidates("dom")
    assert table.names[table.roles.index("button")] == "&lol9;"
    assert table.names[table.roles.index("link")] == "&<"


def test_external_entities_and_resources_are_never_fetched() -> None:
    page = (
        '<!DOCTYPE x [<!ENTITY e SYSTEM "http://127.0.0.1:9/e">]><img alt="a" '
        'src="http://127.0.0.1:9/i.png"><link rel=stylesheet href="http://127.0.0.1:9/s.css">'
        "<p>&e;</p>"
    )
    table = Observation(dom_html=page).candidates("dom")
    assert "img" in table.roles


def test_indices_of_lists_every_position_in_order() -> None:
    items = ["a", "label", "b", "label", "label"]
    assert list(parse.indices_of(items, "label")) == [1, 3, 4]
    assert list(parse.indices_of(items, "style")) == []
    assert list(parse.indices_of([], "a")) == []


@pytest.mark.parametrize(
    "data",
    [
        "<p>café — naïve 😀</p><a href=x>Ünïcode</a>".encode(),
        b"\xef\xbb\xbf<p>bom</p>",
        b'<meta charset="utf-8"><p>caf\xc3\xa9</p>',
        b'<meta charset="utf-8"><p>caf\xe9 broken</p>',
        b"<p>caf\xe9 windows-1252</p>",
        b'<meta charset="iso-8859-2"><p>\xb1\xe6</p>',
        # a late <meta> (past the first 1024 bytes) the parser must not act on either
        b"<!--" + b"x" * 1100 + b'--><meta charset="windows-1252"><p>caf\xc3\xa9</p>',
    ],
)
def test_bytes_parse_as_their_decoded_text(data: bytes) -> None:
    """UTF-8 bytes go to the parser as they are; any page reads the same as its text."""
    from_bytes, from_text = parse_html(data), parse_html(decode_html(data))
    assert from_bytes.tags == from_text.tags
    assert from_bytes.content == from_text.content
    assert from_bytes.attrs == from_text.attrs


def test_raw_text_is_cut_as_the_lazy_pattern_cuts_it() -> None:
    """The raw-text cut spelled out as one lazy regex (the reference) and the cut by
    ``bytes.find`` agree on generated tag soup: closed, unclosed and nested raw-text
    elements, end tags with spaces, names that only start like a raw-text tag."""
    import random
    import re

    reference = re.compile(
        rb"<(script|style|textarea|title|xmp|noembed|noframes|plaintext)\b.*?</\1\s*>",
        re.DOTALL,
    )
    pieces = [b"<script>", b"</script>", b"</script >", b"</script\n>", b"</scriptx>",
              b"<scripts>", b"<style>", b"</style>", b"<title>", b"</title >", b"x", b"<",
              b"</", b" ", b">", b"<textarea a=1>", b"</textarea>", b"<div>",
              b"</div>"]  # fmt: skip
    rng = random.Random(5)
    for _ in range(20_000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert parse._cut_raw_text(data) == reference.sub(b"", data), data


@pytest.mark.timeout(5)
@pytest.mark.parametrize(
    ("page", "refused"),
    [
        ("<script" * 500_000 + "<p>x</p>" * 5000, True),  # never closed: counts as nesting
        ("<script>" * 300_000 + "</scriptx>" + "<p>x</p>" * 5000, True),  # not an end tag
        ("<script>x</script>" * 200_000 + "<p>x</p>" * 5000, False),
    ],
)
def test_pages_of_raw_text_tags_are_read_in_bounded_time(page: str, refused: bool) -> None:
    """Each raw-text element's end is looked for once, not once per element before it: the
    page is read, or refused with a typed error, in time."""
    if refused:
        with pytest.raises(InvalidObservationError, match="max_depth=4096"):
            parse_html(page)
    else:
        assert parse_html(page).tags[0] == "html"
