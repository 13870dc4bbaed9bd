"""Messages: every text a player reads, as a key and its arguments.

A :class:`Message` is ``{"key": ..., "args": {...}}`` in JSON. The key is the gettext
``msgid`` of a catalogue entry (the English text with ``{name}`` placeholders); each
client renders it from the catalogue of its language. An argument is an int, a plain
string shown as it is (a component id such as ``A3``), a nested message (a colour, a
resource, a part of the sentence) or a list of those (shown joined by ``", "``). A plural
entry (``msgid_plural``) picks its form by the argument ``n`` through the catalogue's
``Plural-Forms`` rule. A log entry may be addressed to some seats only (``to``); views
show it to those seats alone.

The catalogues are the gettext ``.po`` files under ``meeplehall/web/locale/<lang>/
LC_MESSAGES/`` (one domain per game plus the client's); :func:`english` renders a
message from the English ones. Parsing needs no third-party package, so the engines
stay dependency-free.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Union

LOCALE = Path(__file__).resolve().parent.parent / "web" / "locale"
PLACEHOLDER = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")

Arg = Union[int, str, "Message", tuple[Union[int, str, "Message"], ...]]


_OWN_JSON: dict[int, Message] = {}
"""Messages by the id of the JSON form they built (``Message.to_json``): reading a view's
log back into a state (a bot's determinization does it at every decision) finds the
messages themselves instead of decoding them again."""
_OWN_JSON_MAX = 1 << 15


class Message:
    """A catalogue key and its arguments; ``to``: the seats it is addressed to (None:
    everyone). Immutable by convention; compares by value. Its JSON form is built once
    and shared (read-only): views carry whole logs after every move."""

    __slots__ = ("_json", "args", "key", "to")

    key: str
    args: dict[str, Arg]
    to: tuple[int, ...] | None
    _json: dict[str, Any] | None

    def __init__(self, key: str, args: dict[str, Any] | None = None,
                 to: Iterable[int] | None = None) -> None:
        # ``args`` is kept as given (lists of arguments as tuples): engines build many
        # messages per move, so nothing is copied here.
        self.key = key
        self.args = {} if args is None else args
        self.to = None if to is None else tuple(to)
        self._json = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return self.key == other.key and self.args == other.args and self.to == other.to

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.args.items())), self.to))

    def __repr__(self) -> str:
        to = "" if self.to is None else f", to={self.to!r}"
        return f"Message({self.key!r}, {self.args!r}{to})"

    def __str__(self) -> str:
        return english(self)

    def seen_by(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) may read this message."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        """``{"key", "args"}`` (and ``"to"`` for an addressed entry), built on the first
        call and shared after it: read-only."""
        out = self._json
        if out is None:
            out = {"key": self.key,
                   "args": {k: _arg_json(v) for k, v in self.args.items()}}
            if self.to is not None:
                out["to"] = list(self.to)
            self._json = out
            if len(_OWN_JSON) >= _OWN_JSON_MAX:
                _OWN_JSON.clear()
            _OWN_JSON[id(out)] = self
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """Inverse of :meth:`to_json`.

        Raises:
            ValueError: ``data`` is not a message.
        """
        own = _OWN_JSON.get(id(data))
        if own is not None and own._json is data:  # a message's own JSON: that message
            return own
        if not isinstance(data, Mapping) or not isinstance(data.get("key"), str):
            raise ValueError(f"not a message: {data!r:.80}")
        args = data.get("args") or {}
        if not isinstance(args, Mapping):
            raise ValueError(f"message {data['key']!r}: args must be an object")
        to = data.get("to")
        return cls(data["key"], {str(k): _arg_from_json(v) for k, v in args.items()},
                   None if to is None else (int(s) for s in to))


def M(key: str, **args: Any) -> Message:
    """A message addressed to everyone: ``M("{who} passes", who=colour)`` (a list of
    arguments given as a tuple)."""
    m = _NEW(Message)
    m.key = key
    m.args = args
    m.to = None
    m._json = None
    return m


_NEW = object.__new__


def term(word: str) -> Message:
    """A message without arguments (a colour, a resource, a component's name)."""
    return _term(word)


@functools.lru_cache(maxsize=4096)
def _term(word: str) -> Message:
    return Message(word)


def _arg_json(value: Arg) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple):
        return [_arg_json(v) for v in value]
    return value


def _arg_from_json(value: Any) -> Arg:
    if isinstance(value, Mapping):
        return Message.from_json(value)
    if isinstance(value, list):
        return tuple(_arg_from_json(v) for v in value)  # type: ignore[misc]
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a message argument must be an int, a string, a message or a "
                         f"list: {value!r:.80}")
    return value


def message_json(value: Message | str) -> dict[str, Any]:
    """A message (or a plain string, as a key without arguments) in JSON form."""
    return value.to_json() if isinstance(value, Message) else {"key": value, "args": {}}


def log_json(log: Iterable[Message | str], seat: int | None = None,
             everything: bool = False) -> list[dict[str, Any]]:
    """The log entries ``seat`` may read (all of them with ``everything``), as JSON (each
    entry's shared, read-only form; the list is new)."""
    return [message_json(m) for m in log
            if everything or not isinstance(m, Message) or m.seen_by(seat)]


def logs_json(log: Iterable[Message | str], seats: Iterable[int | None],
              memo: dict[Any, Any]) -> dict[int | None, list[dict[str, Any]]]:
    """``log_json(log, seat)`` for each of ``seats`` (read-only lists; seats that read
    the same entries share one list), for a server pushing every move to them all.

    ``memo``: a dict the caller keeps for one game from call to call (empty at first).
    A log only grows between moves, so when its first entries are those of the last call
    (compared by identity first, so in C), each seat's list of that call is extended by
    the new entries (in a new list: the old one may still be held by an older view), or
    kept as it is when nothing was added: a view after each move costs what the move
    added to the log, not the whole log again. Any other log (an undo replays the game)
    is read whole."""
    entries = list(log)
    hit = memo.get("log-json")
    start, before = 0, {}
    if hit is not None:
        count = len(hit[0])
        if len(entries) >= count and entries[:count] == hit[0]:
            start, before = count, hit[1]
    out: dict[int | None, list[dict[str, Any]]] = {}
    made: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    for seat in seats:
        if seat in out:
            continue
        old = before.get(seat)
        first = start if old is not None else 0
        shown = [m for m in entries[first:] if not isinstance(m, Message) or m.seen_by(seat)]
        if old is not None and not shown:
            out[seat] = old
            continue
        key = (id(old), *map(id, shown))  # the same parts: the same list
        lines = made.get(key)
        if lines is None:
            added = [message_json(m) for m in shown]
            lines = made[key] = old + added if old else added
        out[seat] = lines
    memo["log-json"] = (entries, out)
    return out


# --- catalogues ---------------------------------------------------------------------------

class Entry:
    """One catalogue entry: the translation, or its plural forms."""

    __slots__ = ("plural", "text")

    def __init__(self, text: str, plural: tuple[str, ...] = ()) -> None:
        self.text = text
        self.plural = plural


class Catalogue:
    """The translations of one language (every domain merged): key -> :class:`Entry`,
    and the plural rule. Untranslated and fuzzy entries are left out."""

    def __init__(self, entries: dict[str, Entry], plural_forms: str = "") -> None:
        self.entries = entries
        self.plural_forms = plural_forms or "nplurals=2; plural=(n != 1);"
        match = re.search(r"plural\s*=\s*([^;]+)", self.plural_forms)
        self.plural_rule = plural_rule(match.group(1) if match else "n != 1")

    def render(self, message: Message | str) -> str:
        """``message`` in this language; a missing key is shown as its English key."""
        if isinstance(message, str):
            message = term(message)
        entry = self.entries.get(message.key)
        args = message.args
        if entry is None:
            text = message.key
        elif entry.plural:
            n = args.get("n", 1)
            index = self.plural_rule(n if isinstance(n, int) else 1)
            text = entry.plural[min(index, len(entry.plural) - 1)]
        else:
            text = entry.text
        if not args:
            return text
        return PLACEHOLDER.sub(lambda m: self._arg(args, m), text)

    def _arg(self, args: dict[str, Arg], match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in args:
            return match.group(0)
        return self.value(args[name])

    def value(self, value: Arg) -> str:
        if isinstance(value, Message):
            return self.render(value)
        if isinstance(value, tuple):
            return ", ".join(self.value(v) for v in value)
        return str(value)


def parse_po(text: str) -> tuple[dict[str, tuple[str, str, tuple[str, ...], bool]], dict[str, str]]:
    """A ``.po`` file's entries (msgid -> (msgstr, msgid_plural, plural msgstrs, fuzzy))
    and its header fields.

    Raises:
        ValueError: a line does not parse (its number is named).
    """
    entries: dict[str, tuple[str, str, tuple[str, ...], bool]] = {}
    fields: dict[str, str] = {}
    current: dict[str, str] = {}
    target = ""
    fuzzy = False
    next_fuzzy = False

    def close() -> None:
        nonlocal current, fuzzy
        if "msgid" in current:
            msgid = current["msgid"]
            plurals = tuple(current[k] for k in sorted(
                (k for k in current if k.startswith("msgstr[")), key=lambda k: int(k[7:-1])))
            if msgid:
                entries[msgid] = (current.get("msgstr", ""), current.get("msgid_plural", ""),
                                  plurals, fuzzy)
            else:
                for line in current.get("msgstr", "").split("\n"):
                    if ":" in line:
                        name, _, value = line.partition(":")
                        fields[name.strip()] = value.strip()
        current = {}
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                next_fuzzy = True
            continue
        try:
            if line.startswith('"'):
                if not target:
                    raise ValueError("a string continues no keyword")
                current[target] += _unquote(line)
                continue
            keyword, _, rest = line.partition(" ")
            if keyword == "msgid":
                close()
                fuzzy, next_fuzzy = next_fuzzy, False
            elif keyword not in ("msgid_plural", "msgstr", "msgctxt") and not re.fullmatch(
                    r"msgstr\[\d\]", keyword):
                raise ValueError(f"unknown keyword {keyword!r}")
            target = keyword
            current[keyword] = _unquote(rest.strip())
        except (ValueError, SyntaxError) as exc:
            raise ValueError(f"line {number}: {exc}") from None
    close()
    return entries, fields


def _unquote(text: str) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted string: {text[:40]!r}")
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


@functools.lru_cache(maxsize=32)
def catalogue(lang: str, domain: str | None = None) -> Catalogue:
    """The merged catalogue of ``lang`` (every domain under ``LOCALE/lang``; ``domain``, a
    game's name, is read first, so its translations win where two domains differ). In
    English an empty translation is the key itself (and the ``msgid``/``msgid_plural``
    pair).

    Raises:
        ValueError: a ``.po`` file does not parse.
    """
    entries: dict[str, Entry] = {}
    plural_forms = ""
    paths = sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po"), key=lambda p: (
        p.stem != domain, p.stem))
    for path in paths:
        try:
            parsed, fields = parse_po(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ValueError(f"{lang}/{path.name}: {exc}") from None
        plural_forms = plural_forms or fields.get("Plural-Forms", "")
        for msgid, (msgstr, msgid_plural, plurals, fuzzy) in parsed.items():
            if fuzzy:
                continue
            if msgid_plural:
                forms = plurals if all(plurals) and plurals else (
                    (msgid, msgid_plural) if lang == "en" else ())
                if forms:
                    entries.setdefault(msgid, Entry(forms[0], forms))
            elif msgstr or lang == "en":
                entries.setdefault(msgid, Entry(msgstr or msgid))
    return Catalogue(entries, plural_forms)


def english(message: Message | Mapping[str, Any] | str) -> str:
    """``message`` (or its JSON form) rendered from the English catalogue."""
    if isinstance(message, Mapping):
        message = Message.from_json(message)
    return catalogue("en").render(message)


# --- gettext plural rules -----------------------------------------------------------------

_TOKEN = re.compile(r"\s*(\d+|n|==|!=|<=|>=|&&|\|\||[-+*/%<>!?:()])")


def plural_rule(expression: str) -> Any:
    """The C expression of a ``Plural-Forms`` header as a function of ``n`` (the index of
    the form), parsed without ``eval``.

    >>> rule = plural_rule("(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)")
    >>> [rule(n) for n in (1, 2, 5, 12, 22, 25)]
    [0, 1, 2, 2, 1, 2]

    Raises:
        ValueError: the expression does not parse.
    """
    tokens = []
    pos = 0
    expression = expression.strip()
    while pos < len(expression):
        m = _TOKEN.match(expression, pos)
        if not m:
            raise ValueError(f"plural rule: cannot read {expression[pos:pos + 10]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    tree, rest = _ternary(tokens)
    if rest:
        raise ValueError(f"plural rule: unexpected {rest[0]!r}")

    def rule(n: int) -> int:
        return int(_eval(tree, n))
    return rule


_BINARY = (("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"), ("*", "/", "%"))


def _ternary(tokens: list[str]) -> tuple[Any, list[str]]:
    cond, rest = _binary(tokens, 0)
    if rest and rest[0] == "?":
        yes, rest = _ternary(rest[1:])
        if not rest or rest[0] != ":":
            raise ValueError("plural rule: '?' without ':'")
        no, rest = _ternary(rest[1:])
        return ("?", cond, yes, no), rest
    return cond, rest


def _binary(tokens: list[str], level: int) -> tuple[Any, list[str]]:
    if level == len(_BINARY):
        return _unary(tokens)
    left, rest = _binary(tokens, level + 1)
    while rest and rest[0] in _BINARY[level]:
        op = rest[0]
        right, rest = _binary(rest[1:], level + 1)
        left = (op, left, right)
    return left, rest


def _unary(tokens: list[str]) -> tuple[Any, list[str]]:
    if not tokens:
        raise ValueError("plural rule: unexpected end")
    head, rest = tokens[0], tokens[1:]
    if head == "!":
        inner, rest = _unary(rest)
        return ("!", inner), rest
    if head == "(":
        inner, rest = _ternary(rest)
        if not rest or rest[0] != ")":
            raise ValueError("plural rule: '(' without ')'")
        return inner, rest[1:]
    if head == "n":
        return "n", rest
    if head.isdigit():
        return int(head), rest
    raise ValueError(f"plural rule: unexpected {head!r}")


def _eval(tree: Any, n: int) -> int:
    if tree == "n":
        return n
    if isinstance(tree, int):
        return tree
    op = tree[0]
    if op == "?":
        return _eval(tree[2], n) if _eval(tree[1], n) else _eval(tree[3], n)
    if op == "!":
        return int(not _eval(tree[1], n))
    a = _eval(tree[1], n)
    if op == "&&":
        return int(bool(a) and bool(_eval(tree[2], n)))
    if op == "||":
        return int(bool(a) or bool(_eval(tree[2], n)))
    b = _eval(tree[2], n)
    ops = {"==": lambda: int(a == b), "!=": lambda: int(a != b), "<": lambda: int(a < b),
           "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b),
           "+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
           "/": lambda: a // b if b else 0, "%": lambda: a % b if b else 0}
    return int(ops[op]())


def log_lines(log: Iterable[Message | str]) -> list[str]:
    """A log (messages) in English, one string per entry."""
    return [english(m) for m in log]
