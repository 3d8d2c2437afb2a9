"""Which fields hold secrets, and how their values are kept out of everything written.

A field is sensitive when its input type, ``autocomplete`` token, ``name``/``id`` attribute,
platform role (``AXSecureTextField``, UIA ``IsPassword``, Android ``password``) or label says it
holds a password, a one-time code, a token, a card number, a CVV, an IBAN or the like, in any
of the languages listed in :data:`LABEL_PATTERNS`. Its value is replaced by :data:`MASK`, and
every other occurrence of that value (in names, values, descriptions, a DOM excerpt) is
replaced too, so a secret echoed elsewhere on the page does not leak through.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Final

__all__ = ["MASK", "MIN_SCRUB", "Scrubber", "is_sensitive", "sensitive_label"]

MASK: Final[str] = "[redacted]"
"""What a secret value becomes (the same whatever its length, so the length does not leak)."""

MIN_SCRUB: Final[int] = 3
"""Secret values at least this long are also removed wherever else they occur; shorter ones
are masked in their own field only (removing every "a" from a page would destroy it)."""

SENSITIVE_TYPES: Final[frozenset[str]] = frozenset({"password"})
"""``<input type>`` values whose value is always a secret."""

SENSITIVE_AUTOCOMPLETE: Final[frozenset[str]] = frozenset(
    {
        "current-password", "new-password", "one-time-code", "cc-number", "cc-csc", "cc-exp",
        "cc-exp-month", "cc-exp-year",
    }
)  # fmt: skip
"""``autocomplete`` tokens (HTML's autofill field names) of secret fields."""

LABEL_PATTERNS: Final[tuple[str, ...]] = (
    # English
    r"pass ?words?", r"pass ?phrase", r"pass ?code", r"\bpin\b", r"\bpins?\b code",
    r"\botp\b", r"one[- ]?time", r"verification code", r"security code", r"auth(entication)? code",
    r"\b2fa\b", r"\bmfa\b", r"two[- ]factor", r"authenticator", r"\btokens?\b", r"\bsecret\b",
    r"api[- ]?key", r"access key", r"private key", r"card ?number", r"credit card",
    r"debit card", r"\bcvv2?\b", r"\bcvc2?\b", r"\bcsc\b", r"\biban\b", r"\bssn\b",
    r"social security", r"routing number", r"account number",
    # German, French, Spanish, Portuguese, Italian, Dutch, Nordic, Polish, Czech, Turkish...
    r"passwort", r"kennwort", r"bestatigungscode", r"sicherheitscode", r"kartennummer",
    r"mot de passe", r"code de verification", r"code de securite", r"numero de carte",
    r"contrasena", r"clave", r"\bcodigo\b(?! postal)", r"numero de tarjeta", r"senha",
    r"parola d.?ordine", r"codice di verifica", r"wachtwoord", r"losenord", r"adgangskode",
    r"passord", r"salasana", r"haslo", r"hasło", r"heslo", r"jelszo", r"\bsifre\b", r"parola",
    # Cyrillic, Greek, Arabic, Hebrew, CJK, Korean, Hindi
    r"пароль", r"код подтверждения", r"κωδικος", r"كلمة (ال)?مرور", r"סיסמ",
    r"密码", r"密碼", r"口令", r"验证码", r"驗證碼", r"パスワード", r"暗証番号", r"認証コード",
    r"비밀번호", r"인증 ?번호", r"पासवर्ड",
)  # fmt: skip
"""Label and attribute fragments (compared lower-cased, without accents) of secret fields."""

_ATTR_WORDS: Final[re.Pattern[str]] = re.compile(
    r"passw|pwd|passwd|\botp\b|one.?time|cvv|cvc|\bcsc\b|card.?num|cc.?num|\biban\b|secret"
    r"|token|\bpin\b|2fa|mfa"
)
_SECURE_ROLES: Final[tuple[str, ...]] = ("secure", "password", "protected")
_SEPARATORS: Final[re.Pattern[str]] = re.compile(r"[_\-.:]+")


def _fold(text: str) -> str:
    """Lower case, accents removed, whitespace collapsed (``Contraseña`` -> ``contrasena``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.split())


# Patterns are folded like the labels they meet (a kana's voicing mark is a combining sign).
_LABELS: Final[re.Pattern[str]] = re.compile("|".join(f"(?:{_fold(p)})" for p in LABEL_PATTERNS))


def sensitive_label(label: str) -> bool:
    """Whether a field's label (or description, or placeholder) names a secret (anything
    but text names none).

    Examples
    --------
    >>> sensitive_label("Contraseña"), sensitive_label("Mot de passe"), sensitive_label("Email")
    (True, True, False)
    """
    return isinstance(label, str) and bool(label) and _LABELS.search(_fold(label)) is not None


def is_sensitive(
    role: str,
    name: str = "",
    *,
    raw_role: str = "",
    attrs: Mapping[str, str] | None = None,
    labels: Iterable[str] = (),
) -> bool:
    """Whether an element's value is a secret to be masked.

    Parameters
    ----------
    role, raw_role:
        Canonical and platform role (``AXSecureTextField``, ``password text`` are secret).
    name:
        The accessible name (its label).
    attrs:
        HTML attributes, when the DOM is known (``type``, ``autocomplete``, ``name``, ``id``,
        ``placeholder``, ``aria-label``).
    labels:
        Further texts that describe the field (description, placeholder).
    """
    if raw_role and any(word in raw_role.casefold() for word in _SECURE_ROLES):
        return True
    if attrs:
        if attrs.get("type", "").strip().lower() in SENSITIVE_TYPES:
            return True
        tokens = attrs.get("autocomplete", "").lower().split()
        if not SENSITIVE_AUTOCOMPLETE.isdisjoint(tokens):
            return True
        for key in ("name", "id"):
            value = attrs.get(key)
            if value and _ATTR_WORDS.search(_SEPARATORS.sub(" ", value.lower())):
                return True
        labels = (*labels, attrs.get("placeholder", ""), attrs.get("aria-label", ""))
    return any(sensitive_label(text) for text in (name, *labels) if text)


class Scrubber:
    """Collects secret values, then removes them from any text written afterwards.

    Examples
    --------
    >>> s = Scrubber()
    >>> s.mask("hunter22")
    '[redacted]'
    >>> s.scrub("you typed hunter22")
    'you typed [redacted]'
    """

    def __init__(self) -> None:
        self._secrets: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    @property
    def count(self) -> int:
        """How many distinct secret values were masked."""
        return len(self._secrets)

    def mask(self, value: str) -> str:
        """Remember ``value`` as a secret and return :data:`MASK` (``""`` stays ``""``)."""
        if not value:
            return value
        stripped = value.strip()
        for secret in {value, stripped}:
            if len(secret) >= MIN_SCRUB and secret not in self._secrets:
                self._secrets.add(secret)
                self._pattern = None
        return MASK

    def scrub(self, text: str) -> str:
        """``text`` with every remembered secret replaced by :data:`MASK`."""
        if not text or not self._secrets:
            return text
        if self._pattern is None:
            # Longest first, so a secret that contains another is removed whole.
            ordered = sorted(self._secrets, key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(s) for s in ordered))
        return self._pattern.sub(MASK, text)
