from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver import Observation
from resolver.snapshot import to_snapshot_v1
from resolver.snapshot.redact import MASK, Scrubber, is_sensitive, sensitive_label

SECRET_LABELS = [
    "Password", "Passwort", "Mot de passe", "Contraseña", "Senha", "Wachtwoord", "Пароль",
    "パスワード", "密码", "비밀번호", "Hasło", "One-time code", "Verification code",
    "Código de verificación", "PIN", "2FA code", "MFA token", "API key", "Card number",
    "CVV", "CVC", "IBAN", "Social security number", "Bestätigungscode", "Kartennummer",
]  # fmt: skip
PLAIN_LABELS = ["Email", "City", "First name", "Search", "Postal code", "Código postal", "Notes"]


@pytest.mark.parametrize("label", SECRET_LABELS)
def test_secret_labels_in_many_languages(label: str) -> None:
    assert sensitive_label(label)


@pytest.mark.parametrize("label", PLAIN_LABELS)
def test_plain_labels_are_not_secret(label: str) -> None:
    assert not sensitive_label(label)


@pytest.mark.parametrize("label", [None, 5, b"password", ["password"]])
def test_a_label_that_is_no_text_names_no_secret(label: object) -> None:
    assert not sensitive_label(label)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "attrs",
    [
        {"type": "password"},
        {"autocomplete": "one-time-code"},
        {"autocomplete": "section-x cc-number"},
        {"name": "user_pwd"},
        {"id": "otp"},
        {"placeholder": "Card number"},
        {"aria-label": "Kennwort"},
    ],
)
def test_attributes_mark_secrets(attrs: dict[str, str]) -> None:
    assert is_sensitive("textbox", "", attrs=attrs)


def test_platform_roles_mark_secrets() -> None:
    assert is_sensitive("textbox", "", raw_role="AXSecureTextField")
    assert not is_sensitive("textbox", "Email", raw_role="AXTextField", attrs={"type": "email"})


def test_scrubber_removes_longest_first_and_ignores_short_values() -> None:
    s = Scrubber()
    s.mask("abc123")
    s.mask("abc")
    s.mask("x")  # too short to search for elsewhere
    assert s.scrub("abc123 and abc and x") == f"{MASK} and {MASK} and x"
    assert s.count == 2


def _strings(value: Any) -> Iterator[str]:
    """Every string value (not key) in a JSON-like structure: where a secret could leak."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


_SECRET = st.text(alphabet="abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789#$%",
                  min_size=4, max_size=16).map(lambda s: s + "$7")  # fmt: skip
"""Secrets end in ``$7``, which no markup word contains (a plain "type" would be found in
the snapshot's own HTML attribute names, not leaked)."""
_FIELD = st.tuples(
    st.sampled_from(SECRET_LABELS),
    st.sampled_from(["text", "password", "tel", "number", ""]),
    st.sampled_from(["", "one-time-code", "off", "cc-csc"]),
    _SECRET,
)


def _form(fields: list[tuple[str, str, str, str]], echo: bool) -> str:
    parts = ['<form aria-label="Account"><label for="city">City</label>'
             '<input id="city" value="Lisbon">']  # fmt: skip
    for i, (label, kind, auto, secret) in enumerate(fields):
        attrs = f' type="{kind}"' if kind else ""
        attrs += f' autocomplete="{auto}"' if auto else ""
        parts.append(f'<label for="f{i}">{label}</label><input id="f{i}"{attrs} value="{secret}">')
        if echo:
            parts.append(f"<p>Your value is {secret} - keep it safe</p>")
    return "<html><body>" + "".join(parts) + "<button>Save</button></form></body></html>"


@settings(max_examples=60, deadline=None)
@given(st.lists(_FIELD, min_size=1, max_size=4), st.booleans(), st.booleans())
def test_no_masked_value_appears_anywhere(fields, echo: bool, prune: bool) -> None:  # type: ignore[no-untyped-def]
    html = _form(fields, echo)
    snap = to_snapshot_v1(Observation(dom_html=html), prune=prune, include_dom=True)
    texts = list(_strings(snap))
    for *_, secret in fields:
        assert not any(secret in text for text in texts)
    assert any("Lisbon" in text for text in texts)  # an ordinary value is kept


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SECRET_LABELS), _SECRET), min_size=1, max_size=4))
def test_tree_values_are_masked_and_scrubbed(fields) -> None:  # type: ignore[no-untyped-def]
    kids = []
    for i, (label, secret) in enumerate(fields):
        kids.append({"id": f"f{i}", "role": "textbox", "name": label, "value": secret})
        kids.append({"id": f"t{i}", "role": "text", "name": f"copied {secret}!"})
    tree = {"id": "root", "role": "form", "name": "Sign in", "children": kids}
    texts = list(_strings(to_snapshot_v1(Observation(accessibility_tree=tree), prune=False)))
    for _, secret in fields:
        assert not any(secret in text for text in texts)
