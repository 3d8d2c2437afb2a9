"""Seeded mutations of a marked page: the "changed version" a reference is resolved on.

Each changed version applies one kind of mutation (:data:`KINDS`), to a subset of the
targets or to the whole page. Every surviving target keeps its ``data-fixture-key``, so the
render of the changed version says where the right answer is.

Per-target kinds (the targets they touch are recorded; the others record ``"none"``):

``wrap``             target wrapped in one or two new ``div``/``span`` elements
``unwrap``           the target's parent element removed, its children kept in place
``reorder``          the children of the target's parent (or of the nearest ancestor with
                     several children) shuffled, so the target's block moves
``duplicate_label``  a copy of the target (same tag, same text, no key, no id) inserted
                     elsewhere, and a variant with another role (``span``/``button``/``a``)
``change_case``      the target's label upper-, lower- or title-cased
``add_word``         a word prepended or appended to the label
``remove_word``      one word removed from a label of two words or more
``change_number``    a digit of the label changed, or a counter ``(N)`` appended
``remove``           the target deleted (a twin of it, if any, stays)
``restyle``          the target's class tokens replaced by new readable ones, the rest of
                     the page left as it was (only in the extra versions of
                     :func:`restyle_versions`)

Page-wide kinds (every target records the kind):

``rename_ids_classes``  every id and class token renamed to a hash (references and inline
                        style sheets follow, as a build tool would do)
``decoys``              "Sign in", "Share", "Read more", "Home" ... links and buttons inserted
                        at several places, some right after targets
``banner``              a 150-400 px tall banner inserted at the top of ``<body>``

A label is what names the element: ``aria-label`` when present, else its text (or an image's
``alt``, a field's ``placeholder``/``value``/``title``).
"""

from __future__ import annotations

import copy
import hashlib
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lxml import etree

from .targets import KEY_ATTR, Target, _hidden, marked, seeded_rng, serialize

__all__ = [
    "EDITING_KINDS",
    "KINDS",
    "MOVING_KINDS",
    "PAGE_WIDE",
    "VERSIONS_PER_PAGE",
    "Version",
    "edit_versions",
    "make_versions",
    "move_versions",
    "removal_versions",
    "restyle_versions",
]

VERSIONS_PER_PAGE = 4
PAGE_WIDE = frozenset({"rename_ids_classes", "decoys", "banner"})
DECOY_TEXTS = ("Sign in", "Share", "Read more", "Home", "Subscribe", "Next")
EXTRA_WORDS = ("new", "now", "more", "today", "here", "online")
_BLOCKS = frozenset(
    {"div", "section", "article", "aside", "footer", "header", "nav", "main", "li", "p", "td"}
)
_UNWRAP_SKIP = frozenset(
    {
        "html", "body", "head", "table", "thead", "tbody", "tfoot", "tr", "td", "th",
        "caption", "colgroup", "ul", "ol", "dl", "select", "optgroup", "datalist", "form",
        "label", "a", "button", "picture", "svg", "iframe", "video", "audio", "object",
        "details", "summary",
    }
)  # fmt: skip
_INLINE = frozenset({"a", "img", "input", "button", "select", "textarea", "span"})
_ID_REFS = ("for", "aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "list")


@dataclass(frozen=True)
class Version:
    """One changed version of a page."""

    name: str  # "v1-wrap"
    kind: str
    html: str
    touched: dict[str, str]  # target key -> the kind that touched it, or "none"


# -- labels as editable slots ------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One piece of an element's label: a text node (``text``/``tail``) or an attribute."""

    node: etree._Element
    where: str  # "text", "tail" or "@<attribute>"

    def get(self) -> str:
        if self.where.startswith("@"):
            return self.node.get(self.where[1:]) or ""
        return getattr(self.node, self.where) or ""

    def set(self, value: str) -> None:
        if self.where.startswith("@"):
            self.node.set(self.where[1:], value)
        else:
            setattr(self.node, self.where, value)


def _text_slots(el: etree._Element) -> list[Slot]:
    """Non-blank text nodes inside ``el`` (its own tail excluded), in document order."""
    slots = []
    if (el.text or "").strip():
        slots.append(Slot(el, "text"))
    for d in el.iterdescendants(etree.Element):
        if d.tag in {"script", "style"}:
            continue
        if (d.text or "").strip():
            slots.append(Slot(d, "text"))
        if (d.tail or "").strip():
            slots.append(Slot(d, "tail"))
    return slots


def _label_slots(el: etree._Element) -> tuple[Slot | None, list[Slot]]:
    """``(aria-label slot or None, content slots)`` of a target."""
    aria = Slot(el, "@aria-label") if (el.get("aria-label") or "").strip() else None
    if el.tag == "img":
        return aria, [Slot(el, "@alt")]
    if el.tag in {"input", "textarea", "select"}:
        attrs = ("value", "placeholder", "title") if el.tag == "input" else ("placeholder",)
        return aria, [Slot(el, "@" + a) for a in attrs if (el.get(a) or "").strip()]
    slots = _text_slots(el)
    if not slots:
        slots = [Slot(img, "@alt") for img in el.iter("img") if (img.get("alt") or "").strip()]
    return aria, slots


def _all_slots(el: etree._Element) -> list[Slot]:
    aria, slots = _label_slots(el)
    return ([aria] if aria else []) + slots


# -- per-target mutations -----------------------------------------------------------------


def _subset(rng: random.Random, keys: list[str], fraction: float) -> list[str]:
    """A seeded subset of ``keys``: about ``fraction`` of them, at least one."""
    if not keys:
        return []
    count = max(1, round(len(keys) * fraction))
    return sorted(rng.sample(keys, count), key=lambda k: int(k[1:]))


def _token(rng: random.Random, prefix: str) -> str:
    return f"{prefix}-{rng.getrandbits(24):06x}"


def _wrap(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    els = marked(root)
    touched = set()
    for key in _subset(rng, sorted(els), 0.5):
        el = els[key]
        parent = el.getparent()
        if parent is None:
            continue
        for _ in range(rng.choice((1, 1, 2))):
            tag = "span" if el.tag in _INLINE and rng.random() < 0.6 else "div"
            wrapper = el.makeelement(tag, {"class": _token(rng, "wrap")})
            tail, el.tail = el.tail, None
            parent = el.getparent()
            parent.insert(parent.index(el), wrapper)
            wrapper.append(el)
            wrapper.tail = tail
            el = wrapper
        touched.add(key)
    return touched


def _unwrap(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    els = marked(root)
    eligible = [
        k
        for k, el in els.items()
        if el.getparent() is not None and el.getparent().tag not in _UNWRAP_SKIP
    ]
    touched = set()
    for key in _subset(rng, sorted(eligible), 0.5):
        parent = els[key].getparent()
        if parent is None or parent.tag in _UNWRAP_SKIP or parent.get(KEY_ATTR) is not None:
            continue
        parent.drop_tag()
        touched.add(key)
    return touched


def _movable_block(el: etree._Element) -> tuple[etree._Element, etree._Element] | None:
    """``(block, child)``: the nearest ancestor of ``el`` (parent first, up to five levels)
    with two element children or more, and its child that holds ``el``."""
    child, block = el, el.getparent()
    for _ in range(5):
        if block is None or block.tag in {"html", "head"}:
            return None
        if len(_movable_children(block)) >= 2:
            return block, child
        child, block = block, block.getparent()
    return None


def _movable_children(block: etree._Element) -> list[etree._Element]:
    return [k for k in block if isinstance(k.tag, str) and k.tag not in {"script", "style"}]


def _reorder(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    els = marked(root)
    touched = set()
    for key in _subset(rng, sorted(els), 0.5):
        found = _movable_block(els[key])
        if found is None:
            continue
        block, child = found
        kids = _movable_children(block)
        old = kids.index(child)
        order = kids[:]
        if len(kids) <= 12:
            while order.index(child) == old:
                rng.shuffle(order)
        else:
            order.remove(child)
            order.insert(rng.choice([i for i in range(len(kids)) if i != old]), child)
        first = block.index(kids[0])
        for k in kids:
            block.remove(k)  # tails travel with their elements
        for i, k in enumerate(order):
            block.insert(first + i, k)
        touched.add(key)
    return touched


def _containers(root: etree._Element) -> list[etree._Element]:
    """Visible block elements of the body outside every target: places to insert things."""
    body = root.find("body")
    if body is None:
        return []
    keyed = set(marked(root).values())
    out = [body]
    for el in body.iter(*_BLOCKS):
        if el in keyed or any(a in keyed for a in el.iterancestors()) or _hidden(el):
            continue
        if any(a.tag in {"a", "button", "label"} for a in el.iterancestors()):
            continue
        out.append(el)
    return out


def _insert_somewhere(rng: random.Random, places: list[etree._Element], el: etree._Element) -> None:
    place = rng.choice(places)
    place.insert(rng.randint(0, len(place)), el)


def _duplicate_label(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    els = marked(root)
    places = _containers(root)
    eligible = [k for k, el in els.items() if _all_slots(el)]
    touched = set()
    for key in _subset(rng, sorted(eligible), 0.5):
        el = els[key]
        twin = copy.deepcopy(el)
        twin.tail = None
        for node in twin.iter(etree.Element):
            for attr in (KEY_ATTR, "id"):
                if attr in node.attrib:
                    del node.attrib[attr]
        _insert_somewhere(rng, places, twin)
        text = " ".join(s.get().strip() for s in _label_slots(el)[1]) or el.get("aria-label", "")
        tag = rng.choice([t for t in ("span", "button", "a") if t != el.tag])
        variant = el.makeelement(tag, {"href": "#"} if tag == "a" else {})
        variant.text = text
        _insert_somewhere(rng, places, variant)
        touched.add(key)
    return touched


def _edit_labels(
    root: etree._Element,
    rng: random.Random,
    edit: Callable[[etree._Element, random.Random], bool],
) -> set[str]:
    els = marked(root)
    keys = [k for k, el in els.items() if _all_slots(el)]
    rng.shuffle(keys)
    wanted = max(1, round(len(keys) * 0.5)) if keys else 0
    touched = set()
    for key in keys:
        if len(touched) >= wanted:
            break
        if edit(els[key], rng):
            touched.add(key)
    return touched


def _case_edit(el: etree._Element, rng: random.Random) -> bool:
    slots = _all_slots(el)
    before = [s.get() for s in slots]
    modes: list[Callable[[str], str]] = [str.upper, str.lower, str.title]
    rng.shuffle(modes)
    for mode in modes:
        after = [mode(v) for v in before]
        if after != before:
            for s, v in zip(slots, after, strict=True):
                s.set(v)
            return True
    return False


def _add_word_edit(el: etree._Element, rng: random.Random) -> bool:
    aria, slots = _label_slots(el)
    if not slots and aria is None:
        return False
    word = rng.choice(EXTRA_WORDS)
    front = rng.random() < 0.5
    for slot in ([aria] if aria else []) + ([slots[0] if front else slots[-1]] if slots else []):
        value = slot.get()
        if front:
            lead = value[: len(value) - len(value.lstrip())]
            slot.set(f"{lead}{word.capitalize()} {value.lstrip()}")
        else:
            trail = value[len(value.rstrip()) :]
            slot.set(f"{value.rstrip()} {word}{trail}")
    return True


def _remove_word_edit(el: etree._Element, rng: random.Random) -> bool:
    aria, slots = _label_slots(el)
    multi = [s for s in ([aria] if aria else []) + slots if len(s.get().split()) >= 2]
    if not multi:
        return False
    position = rng.random()
    changed = False
    for slot in [s for s in multi if s is aria] + [
        max((s for s in multi if s is not aria), key=lambda s: len(s.get().split()), default=None)
    ]:
        if slot is None:
            continue
        words = slot.get().split()
        del words[min(int(position * len(words)), len(words) - 1)]
        slot.set(" ".join(words))
        changed = True
    return changed


def _number_edit(el: etree._Element, rng: random.Random) -> bool:
    aria, slots = _label_slots(el)
    every = ([aria] if aria else []) + slots
    if not every:
        return False
    with_digit = [s for s in every if re.search(r"\d", s.get())]
    if with_digit:
        for slot in with_digit[:1] + ([aria] if aria and aria not in with_digit[:1] else []):
            value = slot.get()
            spots = [m.start() for m in re.finditer(r"\d", value)]
            if not spots:
                continue
            i = rng.choice(spots)
            digit = rng.choice([d for d in "0123456789" if d != value[i]])
            slot.set(value[:i] + digit + value[i + 1 :])
        return True
    counter = f" ({rng.randint(2, 99)})"
    for slot in ([aria] if aria else []) + slots[-1:]:
        value = slot.get()
        trail = value[len(value.rstrip()) :]
        slot.set(value.rstrip() + counter + trail)
    return True


def _remove(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    els = marked(root)
    group = {t.key: (t.tag, t.text) for t in targets}
    removed_groups: set[tuple[str, str]] = set()
    touched = set()
    for key in _subset(rng, sorted(els), 0.35):
        g = group.get(key)
        if g is not None and g in removed_groups:
            continue  # keep the twin of a removed target
        if g is not None:
            removed_groups.add(g)
        els[key].drop_tree()  # keeps the tail text
        touched.add(key)
    return touched


# -- page-wide mutations ------------------------------------------------------------------


def _hashed(prefix: str, value: str) -> str:
    return f"{prefix}{hashlib.sha1(value.encode('utf-8')).hexdigest()[:7]}"


def _rename_ids_classes(
    root: etree._Element, rng: random.Random, targets: list[Target]
) -> set[str]:
    salt = f"{rng.getrandbits(32):08x}"
    ids: dict[str, str] = {}
    classes: dict[str, str] = {}
    for el in root.iter(etree.Element):
        old = el.get("id")
        if old:
            ids.setdefault(old, _hashed("i", salt + old))
            el.set("id", ids[old])
        tokens = (el.get("class") or "").split()
        if tokens:
            for t in tokens:
                classes.setdefault(t, _hashed("c", salt + t))
            el.set("class", " ".join(classes[t] for t in tokens))
    for el in root.iter(etree.Element):
        for attr in _ID_REFS:
            value = el.get(attr)
            if value:
                el.set(attr, " ".join(ids.get(v, v) for v in value.split()))
        for attr in ("href", "usemap"):
            value = el.get(attr) or ""
            if value.startswith("#") and value[1:] in ids:
                el.set(attr, "#" + ids[value[1:]])
    names = sorted(set(ids) | set(classes), key=len, reverse=True)
    if names:
        pattern = re.compile(r"([.#])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")

        def swap(m: re.Match[str]) -> str:
            table = classes if m.group(1) == "." else ids
            return m.group(1) + table.get(m.group(2), m.group(2))

        for style in root.iter("style"):
            if style.text:
                style.text = pattern.sub(swap, style.text)
    return {t.key for t in targets}


def _decoy(root: etree._Element, rng: random.Random) -> etree._Element:
    tag = rng.choice(("a", "button"))
    el = root.makeelement(tag, {"href": "#"} if tag == "a" else {"type": "button"})
    el.text = rng.choice(DECOY_TEXTS)
    el.tail = " "
    return el


def _decoys(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    body = root.find("body")
    if body is None:
        return set()
    places = _containers(root)
    body.insert(0, _decoy(root, rng))
    body.append(_decoy(root, rng))
    for _ in range(rng.randint(3, 6)):
        _insert_somewhere(rng, places, _decoy(root, rng))
    els = marked(root)
    for key in _subset(rng, sorted(els), 0.25):
        els[key].addnext(_decoy(root, rng))
    return {t.key for t in targets}


def _banner(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    body = root.find("body")
    if body is None:
        return set()
    height = rng.randint(150, 400)
    banner = root.makeelement(
        "div",
        {
            "class": _token(rng, "promo"),
            "style": f"display:block;height:{height}px;margin:0;padding:16px;"
            "box-sizing:border-box;background:#fde68a;color:#111;",
        },
    )
    para = root.makeelement("p", {})
    para.text = "We have updated our site. Some things may have moved."
    banner.append(para)
    banner.tail, body.text = body.text, None
    body.insert(0, banner)
    return {t.key for t in targets}


def _per_target(edit: Callable[[etree._Element, random.Random], bool]):
    def run(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
        return _edit_labels(root, rng, edit)

    return run


MUTATIONS: dict[str, Callable[[etree._Element, random.Random, list[Target]], set[str]]] = {
    "wrap": _wrap,
    "unwrap": _unwrap,
    "reorder": _reorder,
    "duplicate_label": _duplicate_label,
    "rename_ids_classes": _rename_ids_classes,
    "change_case": _per_target(_case_edit),
    "add_word": _per_target(_add_word_edit),
    "remove_word": _per_target(_remove_word_edit),
    "change_number": _per_target(_number_edit),
    "remove": _remove,
    "decoys": _decoys,
    "banner": _banner,
}
KINDS = tuple(MUTATIONS)


def make_versions(
    root: etree._Element, targets: list[Target], page: str, count: int = VERSIONS_PER_PAGE
) -> list[Version]:
    """Up to ``count`` changed versions of a marked page, one mutation kind each, chosen by a
    seed from the page name (a kind that touches no target on this page is passed over)."""
    order = list(KINDS)
    seeded_rng("versions", page).shuffle(order)
    versions: list[Version] = []
    base_html = serialize(root)
    for kind in order:
        if len(versions) >= count:
            break
        changed = copy.deepcopy(root)
        touched = MUTATIONS[kind](changed, seeded_rng("mutate", page, kind), targets)
        if not touched:
            continue
        html = serialize(changed)
        if html == base_html:
            continue
        per_target = {t.key: kind if t.key in touched else "none" for t in targets}
        versions.append(Version(f"v{len(versions) + 1}-{kind}", kind, html, per_target))
    return versions


def removal_versions(
    root: etree._Element, targets: list[Target], page: str, count: int
) -> list[Version]:
    """``count`` more ``remove`` versions of a marked page, each from its own seed (``r1``,
    ``r2``, ...): other targets removed than in :func:`make_versions`, for tuning the
    refusal of removed targets on more cases than one version per page gives."""
    return _seeded_versions(root, targets, page, count, "remove", "r")


def _seeded_versions(
    root: etree._Element, targets: list[Target], page: str, count: int, kind: str, prefix: str
) -> list[Version]:
    """``count`` versions of one ``kind`` (:data:`_MUTATIONS`), each from its own seed
    (``<prefix>1``, ``<prefix>2``, ...); a seed that changes nothing gives no version."""
    versions: list[Version] = []
    base_html = serialize(root)
    mutate = _MUTATIONS[kind]
    for k in range(1, count + 1):
        changed = copy.deepcopy(root)
        touched = mutate(changed, seeded_rng("mutate", page, kind, f"{prefix}{k}"), targets)
        html = serialize(changed)
        if not touched or html == base_html:
            continue
        per_target = {t.key: kind if t.key in touched else "none" for t in targets}
        versions.append(Version(f"{prefix}{k}-{kind}", kind, html, per_target))
    return versions


RESTYLE_WORDS = ("card", "tile", "item", "link", "entry", "panel", "block", "cell")
"""Words the ``restyle`` mutation builds new class tokens from (readable, so not taken for a
build's hashed names)."""


def _restyle(root: etree._Element, rng: random.Random, targets: list[Target]) -> set[str]:
    """New class tokens for a seeded third of the targets that have classes; every other
    element keeps its own, as a restyle of one component would leave them."""
    els = marked(root)
    touched = set()
    for key in _subset(
        rng, sorted(k for k, el in els.items() if (el.get("class") or "").split()), 0.35
    ):
        tokens = (els[key].get("class") or "").split()
        fresh = [
            f"{rng.choice(RESTYLE_WORDS)}-{rng.choice(RESTYLE_WORDS)}-v{k + 2}"
            for k in range(len(tokens))
        ]
        els[key].set("class", " ".join(fresh))
        touched.add(key)
    return touched


def restyle_versions(
    root: etree._Element, targets: list[Target], page: str, count: int
) -> list[Version]:
    """``count`` extra ``restyle`` versions of a marked page, each from its own seed
    (``s1``, ``s2``, ...): targets whose classes changed while the page's other elements
    keep theirs, for measuring what the classes cost when a target alone is restyled."""
    return _seeded_versions(root, targets, page, count, "restyle", "s")


MOVING_KINDS: tuple[str, ...] = ("wrap", "unwrap", "reorder", "banner", "duplicate_label")
"""The kinds that move a present target in the page or in the document, or put a copy of it
elsewhere: the ones a refusal of removed targets must not mistake for a removal."""


def move_versions(
    root: etree._Element,
    targets: list[Target],
    page: str,
    count: int,
    kinds: Sequence[str] = MOVING_KINDS,
) -> list[Version]:
    """``count`` extra versions of each of ``kinds`` (:data:`MOVING_KINDS` by default, in
    that order), each from its own seed (``mwra1-wrap``, ``munw1-unwrap``, ...): more
    present targets that moved, for checking that a refusal of removed targets leaves them
    answered, or for studying one kind of move (a seed gives the same version whatever
    other kinds are asked)."""
    unknown = sorted(set(kinds) - set(MOVING_KINDS))
    if unknown:
        raise ValueError(f"not a moving kind: {', '.join(unknown)}")
    versions: list[Version] = []
    for kind in (k for k in MOVING_KINDS if k in kinds):
        versions += _seeded_versions(root, targets, page, count, kind, "m" + kind[:3])
    return versions


EDITING_KINDS: dict[str, str] = {
    "change_case": "ecas",
    "add_word": "eadd",
    "remove_word": "erem",
    "change_number": "enum",
    "decoys": "edec",
}
"""The kinds that change what a page reads (a target's label, or look-alike controls added
around it), with the prefix of their extra versions' names."""


def edit_versions(
    root: etree._Element, targets: list[Target], page: str, count: int
) -> list[Version]:
    """``count`` extra versions of each of :data:`EDITING_KINDS`, each from its own seed
    (``ecas1-change_case``, ``eadd1-add_word``, ...): more targets whose label changed, or
    with decoys beside them, than one version per page gives."""
    versions: list[Version] = []
    for kind, prefix in EDITING_KINDS.items():
        versions += _seeded_versions(root, targets, page, count, kind, prefix)
    return versions


_MUTATIONS: dict[str, Callable[[etree._Element, random.Random, list[Target]], set[str]]] = {
    **MUTATIONS,
    "remove": _remove,
    "restyle": _restyle,
}
"""The mutations :func:`_seeded_versions` makes extra versions of."""
