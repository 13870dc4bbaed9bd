"""Security headers on every answer: the page, static files, the API (the plain move
handler included), errors, and the documentation page with its own policy."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from meeplehall.server.headers import inline_scripts, inline_style_hashes, sha256_source
from tests.server.helpers import bearer, hotseat

EXPECTED = {"x-frame-options": "DENY", "x-content-type-options": "nosniff",
            "referrer-policy": "same-origin"}


def _check(headers: dict[str, str], *, docs: bool = False) -> str:
    for name, value in EXPECTED.items():
        assert headers.get(name) == value, (name, headers)
    policy = headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["frame-ancestors"] == "'none'"
    assert "'unsafe-inline'" not in directives["script-src"]
    if not docs:
        assert directives["script-src"] == "'self'"
    return policy


def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    table, tokens = hotseat(client)
    legal = client.get(f"/api/tables/{table}/legal", headers=bearer(tokens[0])).json()
    move = {"action": legal["actions"][0]["text"], "seq": 0}
    answers = [
        client.get("/"), client.get("/static/js/app.js"), client.get("/static/css/app.css"),
        client.get("/api/games"), client.get(f"/api/tables/{table}/view"),
        client.get("/api/tables/999999"),  # 404
        client.post("/api/tables", json={"game": "nope"}),  # 422
        client.get("/openapi.json"), client.get("/api/i18n/de"), client.get("/api/health"),
        # the plain ASGI move handler, and its general path
        client.post(f"/api/tables/{table}/actions", json=move, headers=bearer(tokens[0])),
        client.post(f"/api/tables/{table}/actions", json={"action": 1},
                    headers=bearer(tokens[1])),
    ]
    assert [a.status_code for a in answers] == [200] * 5 + [404, 422] + [200] * 4 + [422]
    policies = {_check(dict(a.headers)) for a in answers}
    assert len(policies) == 1
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger-ui" in docs.text
    policy = _check(dict(docs.headers), docs=True)
    (script,) = inline_scripts(docs.text)
    assert sha256_source(script) in policy


def test_the_inline_board_style_is_allowed_by_its_hash(client: TestClient) -> None:
    """Praga's board has one constant ``<style>``: its hash is in the policy, and it is
    the hash of the text the module draws."""
    source = client.get("/static/js/games/praga.js").text
    (style,) = re.findall(r"\nconst STYLE = `([^`]*)`;", source)
    hashes = inline_style_hashes()
    assert hashes == [sha256_source(style)]
    assert hashes[0] in client.get("/").headers["content-security-policy"]
