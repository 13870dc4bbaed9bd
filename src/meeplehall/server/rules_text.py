"""The rule text of the decision asked now, split for players: the rule IDs (shown small,
as a reference) and the text without them (``GET /api/tables/{id}/rules``)."""

from __future__ import annotations

import re

# A rule ID of the references (RC-TURN-2, P-ADJ-3/8/9, RC-MARKET-1..7, GL-T4-3,
# RC-CLAIM-1 step 3), with the ranges and alternatives the engines write after it.
RULE_ID = re.compile(r"\b(?:[A-Z]{1,3}(?:-[A-Z0-9]+)+(?:(?:\.\.|/)[A-Z0-9]+)*|Parler P\.\d+)"
                     r"(?: step \d+)?")


def split_rules(text: str) -> tuple[list[str], str]:
    """``(rule_ids, plain)``: every rule ID of ``text`` in order (each once) and the text
    with them taken out ("RC-FREE-1: lose..." -> "Lose...", "(RC-GAIN-1)" -> "")."""
    ids: list[str] = []
    for found in RULE_ID.findall(text):
        if found not in ids:
            ids.append(found)
    ref = RULE_ID.pattern
    plain = re.sub(rf"\(\s*{ref}(?:\s*[,;]\s*{ref})*\s*\)", "", text)  # (RC-GAIN-1, ...)
    plain = re.sub(rf"\(\s*{ref}(?:\s*,\s*{ref})*\s*:\s*", "(", plain)  # (RC-BUILD-1: up to 3
    plain = re.sub(rf"{ref}(?:\s*[,/]\s*{ref})*\s*:\s*", "", plain)  # RC-TURN-2: take
    plain = RULE_ID.sub("", plain)
    plain = re.sub(r"\(\s*[,;]\s*", "(", plain)
    plain = re.sub(r"[,;]\s*\)", ")", plain)
    plain = re.sub(r"\(\s*\)", "", plain)
    plain = re.sub(r"\s+([,.;:)])", r"\1", plain)
    plain = re.sub(r"\s{2,}", " ", plain).strip()
    # A sentence that now starts after a removed ID starts with a capital letter.
    plain = re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), plain)
    return ids, plain
