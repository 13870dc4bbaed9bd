"""The end of a turn on the crane and the clock (P-CRANE-9 steps 2-5, P-CLOCK-1..5), and
the technologies that come into force then (P-TECH-4). Every turn ends here: the seats'
(turn.finish_turn) and the bots' (solo.recycle, P-SOLO-2/3).
"""

from __future__ import annotations

from meeplehall.core.messages import term
from meeplehall.games.praga import crane as K
from meeplehall.games.praga.actions_family import deal_rows
from meeplehall.games.praga.components import load
from meeplehall.games.praga.effects import log
from meeplehall.games.praga.state import PragaState

C = load()


def era_switch(s: PragaState) -> None:
    """P-CLOCK-4/5, P-ROW-6: the era I rows leave the game; era II rows are dealt."""
    s.era = 2
    log(s, term("era II begins"))
    deal_rows(s)


def rotate_crane(s: PragaState, taken: int) -> None:
    """P-CRANE-9 steps 2-5 and the clock (P-CLOCK-1..5) for a turn in which ``taken``
    was taken (already out of ``s.slots``); the sides the engine plays use it too
    (P-SOLO-2/3). The board is set up for ``opts.table`` sides (2 in the rulebook solo)."""
    res = K.end_turn(C.crane, s.rotation, s.slots, taken)
    s.rotation, s.slots = res.rotation, res.slots
    if res.overflowed:
        s.five_vp = res.overflowed[-1]
    if res.star and s.star_armed and s.era == 1:
        era_switch(s)
    if res.drop:
        n = s.opts.table
        s.platform += 1
        if s.platform == C.crane.era_line[n] and s.era == 1:
            if n == 2:
                s.star_armed = True
            else:
                era_switch(s)


def techs_in_force(s: PragaState) -> None:
    """P-TECH-4, P-EDGE-4: at the end of every turn, gained technologies come into
    force; once-per-turn triggers are reset."""
    for p in range(s.players):
        mask = 0
        for t in s.techs[p]:
            mask |= 1 << (C.technologies[t].level - 1)
        s.tech_ready[p] = mask
        s.once[p] = 0
