"""No client reads the engine's raw state: the browser boards, the RL encoders and the
terminal renderers read the views' named sections (docs/schemas); ``view["state"]`` is
the bot-only copy of the public state that ``sample_hidden`` re-deals hidden components
from."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "meeplehall"


def _reads_state(path: Path) -> list[int]:
    """Lines of ``path`` that subscript ``"state"`` or ``.get("state")`` (a view's
    bot-only field); ``pop("state")``, which drops it, is allowed."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                and node.slice.value == "state":
            lines.append(node.lineno)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "get" and node.args \
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == "state":
            lines.append(node.lineno)
    return lines


def test_rl_and_cli_do_not_read_the_views_state() -> None:
    found = {str(p.relative_to(SRC)): _reads_state(p)
             for folder in ("rl", "cli") for p in sorted((SRC / folder).rglob("*.py"))}
    assert {k: v for k, v in found.items() if v} == {}
    assert len(found) > 10


def test_the_checker_sees_a_read(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('x = view["state"]["slots"]\ny = view.get("state")\nview.pop("state")\n',
                      encoding="utf-8")
    assert sorted(_reads_state(sample)) == [1, 2]


def test_browser_boards_do_not_read_the_views_state() -> None:
    js = SRC / "web" / "static" / "js"
    pattern = re.compile(r"\bview\.state\b|\[\s*[\"']state[\"']\s*\]")
    hits = {str(p.relative_to(js)): [n for n, line in enumerate(
        p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
        for p in sorted(js.rglob("*.js"))}
    # The transport (api.js) keeps the patched document whole: the earlier log pages of a
    # long game go into the state's copy of the log too, which it never reads otherwise.
    lines = (js / "api.js").read_text(encoding="utf-8").splitlines()
    hits["api.js"] = [n for n in hits["api.js"] if "log" not in lines[n - 1]]
    assert {k: v for k, v in hits.items() if v} == {}
    assert "games/praga.js" in hits
