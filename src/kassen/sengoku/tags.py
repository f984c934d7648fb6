"""Attack bypass tags: reading ``[Pierce 2]``, ``Direct all``, ``[Incorporeal]``, ``[Break]`` into AttackTags.

The seed standardizes armor bypass into three families, [Pierce N], [Direct N] and [Incorporeal], plus
the auxiliary [Break] (which takes no N). Defense −N is a status on the target, not a tag (SG.DBF.4), and
"equipment damage N points" is an effect written as text, not [Break] (SG.BRK.8): both are refused here
with a message that says so.

>>> parse_tag("Pierce 2")
AttackTags(pierce=2, direct=None, incorporeal=False, break_=False, pierce_natural=None)
>>> format_tags(parse_tags("[Pierce 3] + [Break]"))
'[Pierce 3] + [Break]'
"""

from __future__ import annotations

__all__ = [
    "TagError",
    "check_tags",
    "format_tags",
    "merge_tags",
    "parse_tag",
    "parse_tags",
    "shown_tags",
    "tag_words",
]

import re
from collections.abc import Iterable

from kassen.core.errors import KassenError
from kassen.core.fastreplace import replace
from kassen.i18n import S_, translate_text
from kassen.sengoku.profile import ALL, Amount, AttackTags

_EXPECTED = "expected Pierce N, Direct N (N a number or 'all'), Incorporeal or Break"
_NUMBER = re.compile(r"[0-9]+")
#: The largest N a [Pierce N] or [Direct N] reads.
MAX_AMOUNT = 1_000_000_000


class TagError(KassenError):
    """An attack tag that cannot be read or is not a tag at all; the message quotes the input."""

    code = "sengoku.tag"

    def __init__(self, message: str, text: str = "") -> None:
        self.message = message
        self.text = text
        shown = text if len(text) <= 60 else text[:57] + "..."
        super().__init__(f"bad tag {shown!r}: {message}" if text else message)


def _amount(name: str, arg: str, text: str, rule: str) -> Amount:
    if arg.lower() == ALL:
        return ALL
    if _NUMBER.fullmatch(arg):
        # bounded like every number kassen reads without a range of its own (and read only when short:
        # Python refuses to convert a string of thousands of digits)
        if len(arg) > len(str(MAX_AMOUNT)) or int(arg) > MAX_AMOUNT:
            raise TagError(f"[{name} N] is at most {MAX_AMOUNT:,} ({rule})", text)
        return int(arg)
    if arg.startswith("-") and _NUMBER.fullmatch(arg[1:]):
        raise TagError(f"[{name} N] cannot be negative; N is a number of at least 0 or 'all' ({rule})", text)
    raise TagError(f"[{name} N] needs N as a number or 'all', got {arg!r} ({rule})", text)


def parse_tag(text: str) -> AttackTags:
    """Read one tag, case-insensitive, with or without brackets: ``Pierce 2``, ``[Direct all]``...

    Raises :class:`TagError` on anything else, e.g. ``Pierce -1``, ``Pierce`` (no N), ``Smash 2``,
    ``Break 2`` ([Break] takes no N, SG.BRK.1), ``Defense -2`` (a status, SG.DBF.4).
    """
    inner = text.strip()
    if inner.startswith("[") or inner.endswith("]"):
        if not (inner.startswith("[") and inner.endswith("]")):
            raise TagError("unbalanced brackets", text)
        inner = inner[1:-1].strip()
    words = inner.split()
    if not words:
        raise TagError(f"empty tag; {_EXPECTED}", text)
    name, args = words[0].lower(), words[1:]
    if name == "defense":
        raise TagError(
            "Defense −N is a status on the target, not an attack tag; give it as a debuff (SG.DBF.4)", text
        )
    if name == "equipment":
        raise TagError("equipment damage is an effect written as text, not the [Break] tag (SG.BRK.8)", text)
    if name in ("pierce", "direct"):
        label, rule = ("Pierce", "SG.PRC.1") if name == "pierce" else ("Direct", "SG.DIR.1")
        if len(args) != 1:
            raise TagError(f"[{label} N] needs exactly one N, a number or 'all' ({rule})", text)
        amount = _amount(label, args[0], text, rule)
        return AttackTags(pierce=amount) if name == "pierce" else AttackTags(direct=amount)
    if name in ("incorporeal", "break"):
        label, rule = ("Incorporeal", "SG.INC.1") if name == "incorporeal" else ("Break", "SG.BRK.1")
        if args:
            raise TagError(f"[{label}] takes no N ({rule})", text)
        return AttackTags(incorporeal=True) if name == "incorporeal" else AttackTags(break_=True)
    raise TagError(f"unknown tag {words[0]!r}; {_EXPECTED}", text)


def merge_tags(first: AttackTags, second: AttackTags) -> AttackTags:
    """Both tag sets on one attack; a family given twice is an error (write ``[Pierce 5]``, not two)."""
    for label, a, b in (
        ("Pierce", first.pierce, second.pierce),
        ("Direct", first.direct, second.direct),
        ("natural-armor statement", first.pierce_natural, second.pierce_natural),
    ):
        if a is not None and b is not None:
            raise TagError(f"{label} given twice ({a!r} and {b!r}); give one value")
    return replace(
        first,
        pierce=first.pierce if first.pierce is not None else second.pierce,
        direct=first.direct if first.direct is not None else second.direct,
        incorporeal=first.incorporeal or second.incorporeal,
        break_=first.break_ or second.break_,
        pierce_natural=first.pierce_natural if first.pierce_natural is not None else second.pierce_natural,
    )


def parse_tags(texts: str | Iterable[str]) -> AttackTags:
    """Several tags: a list of tag texts, or one text joined by ``+`` or ``,`` (``[Pierce 3] + [Break]``)."""
    if isinstance(texts, str):
        if not texts.strip():
            return AttackTags()
        texts = re.split(r"[+,]", texts)
    result = AttackTags()
    for piece in texts:
        result = merge_tags(result, parse_tag(piece))
    return result


def check_tags(tags: AttackTags) -> None:
    """Refuse tag values no text could produce (``AttackTags(pierce=-1)`` built in code)."""
    for label, amount, rule in (("Pierce", tags.pierce, "SG.PRC.1"), ("Direct", tags.direct, "SG.DIR.1")):
        if amount is None or amount == ALL:
            continue
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise TagError(f"[{label} N] needs N as a number of at least 0 or 'all', got {amount!r} ({rule})")


def tag_words(tags: AttackTags) -> list[str]:
    """Each tag in words, in English (``[Pierce 3]``, ``[Break]``): each found in the catalog when shown."""
    parts: list[str] = []
    if tags.pierce is not None:
        parts.append(S_("[Pierce {amount}]", amount=tags.pierce))
    if tags.direct is not None:
        parts.append(S_("[Direct {amount}]", amount=tags.direct))
    if tags.incorporeal:
        parts.append(S_("[Incorporeal]"))
    if tags.break_:
        parts.append(S_("[Break]"))
    return parts


def format_tags(tags: AttackTags) -> str:
    """``[Pierce 3] + [Break]``; an empty string for an attack with no tags."""
    return " + ".join(tag_words(tags))


def shown_tags(tags: AttackTags) -> str:
    """:func:`format_tags` in the reader's language."""
    return " + ".join(translate_text(t) for t in tag_words(tags))
