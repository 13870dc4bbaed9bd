"""Final scoring in the rulebook's order (RC-FINAL-1..3, RC-TOWER-*, RC-2P-1, RC-WIN-*)."""

from __future__ import annotations

from typing import Any

from meeplehall.core.messages import M
from meeplehall.core.protocol import Outcome, rank_groups
from meeplehall.games.red_cathedral.scoring import (
    leftover_pp,
    tower_payout,
    tower_presence,
    track,
)
from meeplehall.games.red_cathedral.state import RCState

CATEGORIES = ("track", "leftovers", "towers")


def final_scoring(s: RCState) -> None:
    """Round down, leftovers, towers; stores the result in ``s.final``."""
    t = track()
    rounded = []
    for side in range(s.sides):  # RC-FINAL-1
        s.score[side] = t.round_down(s.score[side])
        rounded.append(t.pp(s.score[side]))
    leftovers = []
    for side in range(s.sides):  # RC-FINAL-2 (RC-SOLO-9 / RC-AMB-10 for Ivan)
        if s.solo and side == 1:
            n = (leftover_pp(sum(s.iv_inv) + sum(s.iv_build), 0)
                 if s.opts.ivan_scores_leftovers else 0)
        else:
            n = leftover_pp(sum(s.inv[side]), s.rubles[side])
        s.score[side] = t.gain_pp(s.score[side], n)
        leftovers.append(n)
    towers_pp = [0] * s.sides
    tower_results = []
    rule_players = 2 if s.solo else s.players  # RC-SOLO-9: two-player tower rule
    for slots in s.towers:  # RC-FINAL-3
        value, presence = tower_presence(s.owner, s.done, s.orn, slots)
        pay = tower_payout(value, presence, rule_players)
        for side, pts in pay.items():
            towers_pp[side] += pts
            s.score[side] = t.gain_pp(s.score[side], pts)
        tower_results.append((value, tuple(sorted(presence.items())), tuple(pay.items())))
    s.final = (
        tuple(t.pp(x) for x in s.score),
        tuple((rounded[i], leftovers[i], towers_pp[i]) for i in range(s.sides)),
        tuple(tower_results),
    )
    s.stack.clear()
    s.log.append(M("final scoring: {scores}", scores=tuple(
        M("side {n}: {pp} PP", n=i, pp=s.final[0][i]) for i in range(s.sides))))


def outcome(s: RCState) -> Outcome | None:
    """Scores, ranking after RC-WIN-2 tie-breaks, and a breakdown per category."""
    if s.final is None:
        return None
    pp, parts, towers = s.final
    keys = [(pp[i], s.completed[i], s.orn_placed[i]) for i in range(s.sides)]
    breakdown = tuple(dict(zip(CATEGORIES, parts[i], strict=True)) for i in range(s.players))
    details: dict[str, Any] = {
        "towers": [{"value": v, "presence": dict(p), "payout": dict(pay)}
                   for v, p, pay in towers],
        "tie_break_keys": [list(k) for k in keys],
    }
    if s.solo:
        human, ivan = keys
        details["ivan"] = {"score": pp[1], "breakdown": dict(zip(CATEGORIES, parts[1],
                                                                 strict=True))}
        result = "win" if human > ivan else "loss" if human < ivan else "shared"
        details["result"] = result  # RC-SOLO-10
        winners: tuple[int, ...] = () if result == "loss" else (0,)
        return Outcome((pp[0],), ((0,),), winners, breakdown, details)
    ranking = rank_groups(keys)
    return Outcome(tuple(pp[: s.players]), ranking, ranking[0], breakdown, details)
