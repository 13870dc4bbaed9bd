"""Generate the encoding tables of ``docs/rl.md`` from the encoders.

``python -m meeplehall.rl.docs`` prints the generated part; a test checks that
``docs/rl.md`` contains it unchanged, so the documentation cannot drift from the code.
"""

from __future__ import annotations

from meeplehall.rl.encoders import make_encoder

BEGIN = "<!-- BEGIN GENERATED: python -m meeplehall.rl.docs -->"
END = "<!-- END GENERATED -->"
CONFIGS: tuple[tuple[str, int], ...] = (("red-cathedral", 2), ("praga", 2))


def _sizes(game: str, counts: tuple[int, ...]) -> str:
    rows = []
    for players in counts:
        enc = make_encoder(game, players)
        rows.append(f"| {players} | {enc.num_actions} | {enc.size} |")
    return "\n".join(["| players | actions | observation floats |", "|---|---|---|", *rows])


def render() -> str:
    """The generated Markdown (between the BEGIN and END markers)."""
    parts = [BEGIN, ""]
    counts = {"red-cathedral": (1, 2, 3, 4), "praga": (1, 2, 3, 4)}
    for game, players in CONFIGS:
        enc = make_encoder(game, players)
        parts += [f"### {game}", "", "Sizes by player count:", "", _sizes(game, counts[game]),
                  "", f"Action catalogue ({players} players): one row per verb, in index "
                  "order.", "",
                  "| verb | first index | count | first action | last action |",
                  "|---|---|---|---|---|"]
        parts += [f"| `{v}` | {i} | {n} | `{a}` | `{b}` |"
                  for v, i, n, a, b in enc.describe_actions()]
        parts += ["", f"Observation layout ({players} players; seat blocks grow with the "
                  "player count).", "", "| block | start | size | contents |",
                  "|---|---|---|---|"]
        parts += [f"| `{name}` | {start} | {size} | {doc} |"
                  for name, start, size, doc in enc.describe_blocks()]
        parts.append("")
    parts.append(END)
    return "\n".join(parts)


if __name__ == "__main__":
    print(render())
