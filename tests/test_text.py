import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.text import (
    NAME_TIERS,
    Joined,
    close_unspaced,
    collapse,
    collapse_many,
    container_similarity,
    cut_of,
    fuzzy_matrix,
    fuzzy_pairs,
    json_text,
    mask_digits,
    mask_digits_joined,
    mask_digits_many,
    mask_digits_text,
    name_similarity,
    normalize,
    normalize_joined,
    normalize_many,
    unspaced,
    valid_unicode,
    words,
)


def test_normalize() -> None:
    assert normalize("  Sign\u00a0IN  ") == "sign in"
    assert normalize("Save\u200b") == "save"
    assert normalize("« Back") == "back"
    assert normalize("ＯＫ") == "ok"
    # typographic quotes as a screen's reading or another tool writes them
    assert normalize("Editor\u2019s \u201cPicks\u201d") == normalize('Editor\'s "Picks"')


def test_spaces_inside_a_script_written_without_them_are_closed() -> None:
    assert close_unspaced("经 济") == "经济" and close_unspaced("山田 太郎") == "山田太郎"
    assert close_unspaced("東京 News") == "東京 News"  # between scripts a space stays
    assert close_unspaced("한국 어") == "한국 어"  # Korean is written with spaces
    assert close_unspaced("a b") == "a b"
    assert unspaced("经") and unspaced("カ") and not unspaced("a") and not unspaced("한")


def test_mask_digits() -> None:
    assert mask_digits("inbox (12)") == "inbox (#)"
    assert mask_digits("1,234.50 usd") == "# usd"


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("OK", "OK", 1.0),
        ("OK", "ok", 0.97),
        ("Inbox (3)", "Inbox (12)", 0.9),
        ("OK", "", 0.0),
        ("", "OK", 0.0),
    ],
)
def test_name_tiers(a: str, b: str, expected: float) -> None:
    assert name_similarity(a, b) == pytest.approx(expected)


def test_fuzzy_is_capped_and_ordered() -> None:
    added_word = name_similarity("Email", "Email address")
    unrelated = name_similarity("Save", "Cancel")
    assert 0.5 < added_word <= 0.88
    assert unrelated < 0.5


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Follow", "Unfollow"),
        ("Subscribe", "Unsubscribe"),
        ("Log in", "Log out"),
        ("Show more", "Show less"),
        ("Select all", "Deselect all"),
        ("Zoom in", "Zoom out"),
    ],
)
def test_names_that_say_the_opposite_do_not_agree(a: str, b: str) -> None:
    # They share most of their letters ("Follow" in "Unfollow" scores 0.86 by letters).
    assert name_similarity(a, b) == 0.0 and name_similarity(b, a) == 0.0
    # The batch forms (all pairs, and given pairs) agree with the scalar one.
    names = [normalize(b), normalize(a), "something else"]
    matrix = fuzzy_matrix([normalize(a)], names)
    assert matrix[0, 0] == 0.0 and matrix[0, 1] == pytest.approx(0.88)
    pairs = fuzzy_pairs([normalize(a), normalize(a)], names[:2])
    np.testing.assert_allclose(pairs, matrix[0, :2])


def test_names_that_only_share_a_stem_or_state_still_agree() -> None:
    assert name_similarity("Follow", "Following") > 0.7  # a state, not an opposite
    assert name_similarity("Show more", "Show more posts") > 0.7
    assert name_similarity("Login", "Log in") > 0.7


def test_container_similarity_innermost_decides() -> None:
    same = container_similarity(("Settings", "Display"), ("Settings", "Display"))
    other = container_similarity(("Settings", "Display"), ("Settings", "Network"))
    wrapped = container_similarity(("Settings", "Display"), ("Settings", "Panel", "Display"))
    assert same == 1.0
    assert wrapped == 1.0
    assert other < 0.4
    assert container_similarity((), ("x",)) == 1.0
    assert container_similarity(("x",), ()) == 0.0


def test_a_container_named_by_its_text_survives_its_content_reordered() -> None:
    # A layout cell named by all its content: moving a link inside it reorders its name.
    cell = "Home > Fables > January > The greedy dog Listen Print Next"
    moved = "January > The greedy dog Home > Fables > Print Listen Next"
    assert container_similarity((cell,), (moved,)) >= 0.85
    # Different content stays different, reordered or not.
    other = "Home > Fables > March > The fox and the grapes Listen Print Next"
    assert container_similarity((cell,), (other,)) < 0.6
    # Short labels are labels: word order still counts there.
    assert container_similarity(("Account settings",), ("Settings account",)) < 0.85


def test_collapse_agrees_with_the_whitespace_regex_on_every_code_point() -> None:
    every = "a".join(chr(c) + chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    assert collapse(every) == re.sub(r"\s+", " ", every).strip()


# -- batch forms ----------------------------------------------------------------------------

_TRICKY = (
    "\x00\x01\x02\x03 \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2000\u3000\u200b\ufeff"
    "0123456789٣.,:/-_()«»!?#aZ é\u0301ß\u0130ﬁ①"
)
_names = st.text(alphabet=st.sampled_from(_TRICKY), max_size=12)
_any_names = st.one_of(_names, st.text(max_size=12), st.text(alphabet="ab 1.", max_size=600))


@settings(max_examples=250, deadline=None)
@given(st.lists(_any_names, max_size=20))
def test_batch_forms_give_exactly_the_per_name_forms(names: list[str]) -> None:
    assert collapse_many(names) == [collapse(n) for n in names]
    assert normalize_many(names) == [normalize(n) for n in names]
    assert mask_digits_many(names) == [mask_digits(n) for n in names]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(max_codepoint=127), max_size=8), max_size=30))
def test_batch_forms_of_ascii_names(names: list[str]) -> None:
    assert collapse_many(names) == [collapse(n) for n in names]
    assert normalize_many(names) == [normalize(n) for n in names]
    norms = [normalize(n) for n in names]
    assert mask_digits_many(norms) == [mask_digits(n) for n in norms]


def _check_joined(done: Joined, want: list[str]) -> None:
    assert done.texts == want
    if done.joined is not None:  # (left out where some text went the slow way)
        assert done.sep and not any(done.sep in t for t in want)
        assert done.joined == done.sep.join(want)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_any_names, st.text(alphabet="Ab 12.", max_size=9)), max_size=25))
def test_joined_forms_hold_the_texts_they_give(names: list[str]) -> None:
    # The results joined, when given, are exactly the results joined by the separator; the
    # masks made from the normalised names' joined form are the masks of those names.
    norms = normalize_joined(names)
    _check_joined(norms, [normalize(n) for n in names])
    _check_joined(mask_digits_joined(norms), [mask_digits(normalize(n)) for n in names])
    text = mask_digits_text(norms)  # (the masks joined, without a string per name)
    if text is not None:
        assert norms.joined is not None and norms.joined.isascii()
        assert text.split(norms.sep) == [mask_digits(normalize(n)) for n in names]
    else:
        assert norms.joined is None or not norms.joined.isascii() or not names


def test_joined_forms_of_plain_names_come_joined() -> None:
    norms = normalize_joined(["Order 12", "Save", "page 1.5 of 3"])
    assert norms.joined == "order 12\x00save\x00page 1.5 of 3" and norms.sep == "\x00"
    masks = mask_digits_joined(norms)
    assert masks.joined == "order #\x00save\x00page # of #" == mask_digits_text(norms)
    assert mask_digits_text(normalize_joined(["Save", "ok"])) == "save\x00ok"
    assert normalize_joined(["Café", "x"]).joined is None  # (a name went the slow way)
    assert normalize_joined(["a\x00", "\x01", "\x02", "\x03"]).joined is None


def test_batch_forms_when_every_separator_is_in_a_name() -> None:
    names = ["A\x00 1", "\x01B  2", "c\x02", "\x03", "  D 3.4 "]
    assert collapse_many(names) == [collapse(n) for n in names]
    assert normalize_many(names) == [normalize(n) for n in names]
    assert mask_digits_many(names) == [mask_digits(n) for n in names]


def test_batch_forms_of_the_common_and_the_odd_names() -> None:
    names = ["Inbox (3)", "Sign  IN", " x ", "", "a" * 300, "Page 1.5 of 3", "Café", "n12"]
    assert normalize_many(names) == [
        "inbox (3", "sign in", "x", "", "a" * 256, "page 1.5 of 3", "café", "n12",
    ]  # fmt: skip
    assert mask_digits_many(normalize_many(names))[5] == "page # of #"
    assert collapse_many(names)[:3] == ["Inbox (3)", "Sign IN", "x"]
    assert normalize_many([]) == mask_digits_many(()) == collapse_many([]) == []


def test_forms_made_one_at_a_time_are_remembered_up_to_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A batch's non-ASCII names are made one at a time once, then remembered for the next
    batch (an agent's next observation of the page), and forgotten all at once past the
    bound; remembered or not, each form is the per-name one."""
    import resolver.text as text_module

    calls: list[str] = []

    def counted(name: str) -> str:
        calls.append(name)
        return normalize(name)

    monkeypatch.setattr(text_module, "ONE_BY_ONE_KEPT", 4)
    names = [f"Caf\u00e9 {k}" for k in range(6)]
    batch = text_module._batched
    first = batch(names[:3], text_module._fast_normalize, counted).texts
    again = batch(names[:3], text_module._fast_normalize, counted).texts
    assert first == again == [normalize(n) for n in names[:3]]
    assert calls == names[:3]  # the second batch made none of them again
    more = batch(names, text_module._fast_normalize, counted).texts
    assert more == [normalize(n) for n in names]
    assert len(text_module._ONE_BY_ONE[counted]) <= 4


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=' ._-"(#)ab1Z', max_size=10), max_size=40))
def test_names_with_punctuation_at_their_edges_lose_it_in_the_batch(names: list[str]) -> None:
    """Punctuation, underscores and spaces at a name's edges go in the batch as they go one
    name at a time; a name of punctuation alone becomes empty."""
    _check_joined(normalize_joined(names), [normalize(n) for n in names])
    assert normalize_many(['"Quoted"', "82.", "...", "_a_", " .x. ", "a"]) == [
        "quoted", "82", "", "a", "x", "a",
    ]  # fmt: skip


def test_words_drop_the_punctuation_an_ocr_reads_around_them() -> None:
    assert words("Blog.(27).") == ["blog", "27"]
    assert words("  Sign\u00a0IN » ") == ["sign", "in"]
    assert words("更多>>(87)") == ["更多", "87"]
    assert words("•") == []


def test_a_name_cut_in_the_middle_of_a_word_agrees_as_well_as_fuzzy_agreement_can() -> None:
    whole = "Practice the HALT Method to Curb Impulse Purchases"
    cut = whole[:30]  # "... to Cu"
    cap = NAME_TIERS["fuzzy_cap"]
    assert cut_of(normalize(cut), normalize(whole))
    assert name_similarity(cut, whole) == cap
    # Above a few of its words read alone, which token_set_ratio counts in full.
    assert name_similarity(cut, "Practice the HALT") < cap
    # The batch forms agree with the scalar one.
    names = [normalize(whole), normalize("Practice the HALT"), normalize("Weather")]
    assert fuzzy_matrix([normalize(cut)], names)[0][0] == cap
    assert fuzzy_pairs([normalize(cut)] * 3, names)[0] == cap
    # Not a cut: a name ending where a word ends, a short name, or the whole name.
    assert not cut_of(normalize(whole[:27]), normalize(whole))  # "... to"
    assert name_similarity(whole[:27], whole) < cap
    assert not cut_of("save the dr", "save the draft")
    assert not cut_of(normalize(whole), normalize(whole))


def test_valid_unicode_replaces_lone_surrogates_and_joins_split_pairs() -> None:
    plain = "caf\u00e9 \U0001f600"
    assert valid_unicode(plain) is plain
    assert valid_unicode("Buy \ud83d") == "Buy \ufffd"
    assert valid_unicode("\ud83d\ude00 \udc00x") == "\U0001f600 \ufffdx"
    value = {"a\ud800": ["\udfff", ("t\ud83d", 3)], "n": None}
    assert valid_unicode(value) == {"a\ufffd": ["\ufffd", ("t\ufffd", 3)], "n": None}
    assert type(valid_unicode(value)["a\ufffd"][1]) is tuple
    assert valid_unicode(b"\xed\xa0\x80") == b"\xed\xa0\x80"  # bytes are not text


def test_json_text_escapes_only_when_utf8_cannot_carry_the_text() -> None:
    assert json_text({"a": "caf\u00e9"}) == '{"a": "caf\u00e9"}'
    text = json_text({"a": "caf\u00e9 \ud83d"})
    assert text == '{"a": "caf\\u00e9 \\ud83d"}' and json.loads(text) == {"a": "caf\u00e9 \ud83d"}
    with pytest.raises(ValueError):
        json_text({"x": float("nan")}, allow_nan=False)
