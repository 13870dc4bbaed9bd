"""Players' names: what a seat's player may call themselves.

A name is public (the lobby, spectators and every seat see it). It is trimmed of
surrounding white space and must then be 1 to ``MAX_NAME`` characters, with no control,
format or private-use characters (no line breaks, no bidirectional overrides, no
zero-width characters), no line or paragraph separators, and no ``<`` or ``>``: nothing
that a client could take for markup. The browser escapes it like any other text
besides; the server stores it as given (after trimming).
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 24  # characters (code points) a player's name may have after trimming
# Unicode general categories a name may not contain: control, format, surrogate,
# private use, unassigned, line and paragraph separators.
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
MARKUP = frozenset("<>")  # characters refused so that no name reads as markup


def clean_name(value: str) -> str:
    """``value`` trimmed, or ``ValueError`` saying why it cannot be a player's name."""
    name = value.strip()
    if not name:
        raise ValueError("a name must have at least one character that is not a space")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters (this one has "
                         f"{len(name)})")
    for char in name:
        if char in MARKUP:
            raise ValueError(f"a name may not contain {char!r}: '<' and '>' are refused, "
                             "so that no name can be read as markup")
        if unicodedata.category(char) in _REFUSED:
            raise ValueError(f"a name may not contain the character U+{ord(char):04X} "
                             "(control and invisible characters are refused)")
    return name
