"""The browser client: static files (ES modules, CSS) and the message catalogues.

``mount(app)`` adds to a FastAPI app:

- ``GET /``: the app shell (``static/index.html``); the client routes with the URL
  fragment (``#/``, ``#/table/{id}``, ``#/table/{id}/join/{seat}``).
- ``GET /static/...``: the ES modules, the stylesheet and the sounds.
- ``GET /api/i18n/{lang}``: the merged message catalogue of a language as JSON,
  ``{"lang", "languages", "plural", "messages": {msgid: msgstr or [plural forms]}}``
  (``plural``: the C expression of the language's ``Plural-Forms`` rule), built from the
  gettext ``.po``
  files under ``locale/{lang}/LC_MESSAGES/`` (every domain present: ``client``,
  ``red-cathedral``, ``praga``, ...). Empty and fuzzy entries are left out, so the client
  falls back to the English msgid. ``?game=NAME`` gives that game's domain precedence
  where two domains translate the same msgid differently (a table page asks with its
  game). See docs/web-client.md.
- ``GET /api/board/red-cathedral/track``: the scoring track of The Red Cathedral as the
  board draws it, ``{"lap_length", "prestige_positions"}`` (from the game's data files).

There is no build step: the files are served as they are in the package.
"""

from __future__ import annotations

import functools
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
LOCALE = HERE / "locale"
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch", "pl": "Polski",
                             "ru": "Русский", "pt": "Português"}


@functools.lru_cache(maxsize=32)
def catalogue(lang: str, game: str | None = None) -> dict[str, str | list[str]]:
    """Every translated message of ``lang`` over all domains (msgid -> msgstr; a plural
    entry: msgid -> its forms, in the order of the language's ``Plural-Forms`` rule); the
    domain named ``game`` (if any) is read last, so its translations win. In English an
    untranslated plural entry gives its ``msgid`` and ``msgid_plural``.

    Raises:
        KeyError: ``lang`` is not one of :data:`LANGUAGES`.
        ValueError: a ``.po`` file does not parse (its path and line are named).
    """
    if lang not in LANGUAGES:
        raise KeyError(lang)
    from babel.messages.pofile import PoFileError, read_po

    messages: dict[str, str | list[str]] = {}
    folder = LOCALE / lang / "LC_MESSAGES"
    paths = sorted(folder.glob("*.po")) if folder.is_dir() else []
    paths.sort(key=lambda p: p.stem == game)
    for path in paths:
        with path.open("rb") as handle:
            try:
                cat = read_po(handle, locale=None, abort_invalid=True)
            except PoFileError as exc:
                raise ValueError(f"{path.parent.parent.name}/{path.name}: {exc}") from None
        for message in cat:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple):
                forms = [str(f) for f in (message.string or ())]
                if all(forms):
                    messages[str(message.id[0])] = forms
                elif lang == "en":
                    messages[str(message.id[0])] = [str(message.id[0]), str(message.id[1])]
            elif isinstance(message.string, str) and message.string:
                messages[str(message.id)] = message.string
    return messages


@functools.lru_cache(maxsize=8)
def plural_rule(lang: str) -> str:
    """The C expression of ``lang``'s ``Plural-Forms`` header (``n != 1`` when absent)."""
    from meeplehall.core.messages import catalogue as engine_catalogue

    forms = engine_catalogue(lang).plural_forms
    _, _, rule = forms.partition("plural=")
    return rule.rstrip("; ") or "n != 1"


def _domains() -> set[str]:
    return {p.stem for p in LOCALE.glob("*/LC_MESSAGES/*.po")}


def mount(app: FastAPI) -> None:
    """Serve the client from ``app`` (a FastAPI app): ``/``, ``/static`` and the
    catalogues at ``/api/i18n/{lang}``."""
    no_cache = {"Cache-Control": "no-cache"}

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html", headers=no_cache)

    @app.get("/api/i18n/{lang}", tags=["client"], responses={
        404: {"description": "an unknown language",
              "content": {"application/json": {"example": {"detail": "unknown language"}}}}})
    async def i18n(lang: str, game: str | None = None) -> JSONResponse:
        """The message catalogue of a language (msgid -> translation) for the client;
        ``game``: that game's translations win over the other domains'."""
        if lang not in LANGUAGES:
            return JSONResponse(
                {"detail": f"unknown language {lang[:20]!r}; languages are: "
                           f"{', '.join(LANGUAGES)}"}, status_code=404)
        messages = catalogue(lang, game if game in _domains() else None)
        return JSONResponse({"lang": lang, "languages": LANGUAGES, "plural": plural_rule(lang),
                             "messages": messages}, headers=no_cache)

    @app.get("/api/board/red-cathedral/track", tags=["client"])
    async def red_cathedral_track() -> JSONResponse:
        """The Red Cathedral's scoring track: the lap length and the Prestige spaces."""
        from meeplehall.games.red_cathedral.components import load

        data = load()
        return JSONResponse({"lap_length": data.lap_length,
                             "prestige_positions": list(data.prestige_positions)})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
