"""Scripted input for the terminal game: answers from a list, then a default forever.

``FIRST`` answers with the first number of the menu printed last (menu numbers stay with
their actions while a decision goes on, so "1" is not always on the list).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

MAX_ANSWERS = 5_000
FIRST = "<first>"
MENU_LINE = re.compile(r"^ {2,3}(\d+)\. ")
MENU_END = "Type a number, an action, or 'help'."


def first_choice(text: str) -> str:
    """The first number of the last menu printed in ``text``."""
    lines = text[: text.rindex(MENU_END)].splitlines()
    numbers: list[int] = []
    for line in reversed(lines):
        match = MENU_LINE.match(line)
        if match is None:
            if numbers:
                break
            continue
        numbers.append(int(match.group(1)))
    assert numbers, "no menu was printed"
    return str(min(numbers))


class Script:
    """An ``input_fn`` answering from a list, then ``default`` (or EOF) forever; the
    answer ``FIRST`` reads the menu from ``buf`` (the console's output)."""

    def __init__(self, answers: Iterable[str], default: str | None = None,
                 buf: io.StringIO | None = None) -> None:
        self.answers = list(answers)
        self.default = default
        self.buf = buf
        self.asked = 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        assert self.asked <= MAX_ANSWERS, "the game did not end"
        if self.answers:
            answer = self.answers.pop(0)
        elif self.default is None:
            raise EOFError
        else:
            answer = self.default
        if answer == FIRST:
            assert self.buf is not None, "FIRST needs the console's buffer"
            return first_choice(self.buf.getvalue())
        return answer
