"""Request and response bodies of the HTTP API (they make its OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
)

from meeplehall.server.names import MAX_NAME, clean_name

MAX_SEQ = 2**31 - 1
SeatKind = StrictStr


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _OverDays(_Strict):
    """A table's settings for play over days (both for a new and an imported table)."""

    deadline_hours: float | None = Field(
        default=None, ge=1, le=336,
        description="turn deadline in hours (1 to 336, 14 days); omitted or null: none. "
                    "A reminder goes out before it; past it the stand-in bot moves for "
                    "the seat until its player returns")
    stand_in: StrictStr | None = Field(
        default=None, max_length=32,
        description="the bot level that stands in past the deadline (default: greedy)")
    spectator_chat: StrictBool = Field(
        default=False, description="spectators may read the table's chat")


class CreateTable(_OverDays):
    """Open a table: a game of the registry, its options, a seed and who sits where."""

    game: StrictStr = Field(min_length=1, max_length=64, examples=["red-cathedral"])
    options: dict[str, Any] = Field(default_factory=dict, max_length=64,
                                    examples=[{"players": 2}])
    seed: StrictInt | None = Field(
        default=None,
        description="game seed, a whole number between -(2**53 - 1) and 2**53 - 1 (larger "
                    "ones are refused: a browser reads no larger number exactly); omitted: a "
                    "random one. Every seat and the lobby are told that the creator chose it "
                    "(never the value)")
    seats: list[SeatKind] | None = Field(
        default=None, max_length=16,
        description="one entry per seat: 'human' or a bot kind; omitted: all human")
    rated: StrictBool = Field(
        default=False,
        description="a rated game: its end updates the ratings of its seats when every "
                    "seat is an account's or a bot's; false or omitted: casual")


class ImportTable(_OverDays):
    """Open a table from an exported game record; it must replay."""

    record: dict[str, Any]
    seats: list[SeatKind] | None = Field(default=None, max_length=16)


class NameIn(_Strict):
    """A player's name: public, trimmed, then 1 to 24 characters with no control or
    invisible characters (``meeplehall.server.names``)."""

    name: StrictStr | None = Field(
        default=None, max_length=200, examples=["Ada"],
        description=f"the player's name, 1 to {MAX_NAME} characters after trimming; "
                    "null or omitted: none")

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str | None) -> str | None:
        return None if value is None else clean_name(value)


class MoveIn(_Strict):
    action: StrictStr = Field(min_length=1, max_length=200, examples=["end-turn"],
                              description="the text form of a legal action")
    seq: StrictInt = Field(ge=0, le=MAX_SEQ,
                           description="the table's seq you last saw (views carry it)")


class UndoIn(_Strict):
    seq: StrictInt = Field(ge=0, le=MAX_SEQ)
    count: StrictInt | None = Field(
        default=1, ge=1, le=10_000,
        description="moves to take back; null: all of yours back to the last barrier")


class SeatOut(BaseModel):
    seat: int
    kind: str
    open: bool
    name: str | None = Field(default=None, description="the name its player gave (public)")
    played_by: str | None = Field(default=None, description="the bot level moving for this "
                                  "person's seat now; null: the seat plays itself")
    played_why: str | None = Field(default=None, description="'host' (handed to a bot by "
                                   "the host) or 'deadline' (a stand-in past the deadline)")
    muted: bool = Field(default=False, description="the host muted the seat's chat")
    deadline: str | None = Field(default=None, description="the seat's turn deadline "
                                 "(ISO 8601, UTC); null: none running")


class TableOut(BaseModel):
    id: int
    game: str
    params: dict[str, Any]
    seats: list[SeatOut]
    seq: int
    moves: int | None = None
    to_move: int | None = None
    finished: bool
    source: str = Field(description="'new' (random seed), 'chosen' (the creator gave the "
                                    "seed) or 'import' (from a record)")
    seed_chosen: bool = Field(description="the creator knows the seed (a chosen seed or an "
                                          "imported record), so the game holds no secret "
                                          "from them")
    rated: bool = Field(default=False, description="a rated game (its creator's choice)")
    created_at: str
    hosted: bool = Field(default=False, description="the table has a host (its creator)")
    deadline_hours: float | None = Field(default=None, description="the turn deadline")
    stand_in: str | None = Field(default=None, description="the stand-in bot level")
    spectator_chat: bool = Field(default=False, description="spectators read the chat")


class CreatedOut(TableOut):
    """A table just opened, with its host token (shown this once)."""

    host_token: str = Field(description="the host's secret: send it as 'X-Host-Token' "
                                        "for the host's controls")


class RecoveryMailOut(BaseModel):
    """A recovery link sent by e-mail: to how many confirmed addresses."""

    table_id: int
    seat: int
    sent: int


class RecoveryOut(BaseModel):
    table_id: int
    seat: int
    secret: str = Field(description="one-time secret: POST it to /recover on the other "
                                    "device")
    link: str = Field(description="the browser's recovery link (path and fragment)")


class RecoverIn(_Strict):
    secret: StrictStr = Field(min_length=1, max_length=200)


class InviteOut(BaseModel):
    table_id: int
    seat: int
    invite: str = Field(description="the seat's new invite link (path and fragment)")


class BotIn(_Strict):
    level: StrictStr = Field(min_length=1, max_length=32, examples=["greedy"])


class MuteIn(_Strict):
    muted: StrictBool = True


class ChatIn(_Strict):
    text: StrictStr = Field(min_length=1, max_length=2000,
                            description="the message, 1 to 500 characters after trimming")


class ChatMessage(BaseModel):
    id: int
    seat: int
    name: str | None
    text: str
    at: str


class ChatPage(BaseModel):
    table_id: int
    messages: list[ChatMessage]


class TableList(BaseModel):
    tables: list[TableOut]


class JoinOut(BaseModel):
    table_id: int
    seat: int
    token: str = Field(description="the seat's secret: send it as 'Authorization: Bearer'")


class SeatState(BaseModel):
    """Where a table stands, for one seat (None: a spectator)."""

    table_id: int
    seq: int
    moves: int
    seat: int | None
    to_move: int | None
    your_turn: bool
    finished: bool
    outcome: dict[str, Any] | None
    undoable: int | None = None
    decision: MessageOut | None = None
    legal: list[ActionOut] | None = None


class MessageOut(BaseModel):
    """A text for people: a catalogue key and its arguments (``meeplehall.core.messages``);
    an argument is an int, a string, a nested message or a list of those."""

    key: str
    args: dict[str, Any] = Field(default_factory=dict)


class ActionOut(BaseModel):
    text: str
    label: MessageOut


class ViewOut(SeatState):
    view: dict[str, Any] = Field(description="the game's player_view for this seat")


class LogPage(BaseModel):
    """A page of a view's log (``GET /tables/{id}/log``)."""

    table_id: int
    seq: int
    seat: int | None = Field(description="whose view's log; null: the spectators'")
    total: int = Field(description="entries in the whole log")
    from_: int = Field(alias="from", description="the index of this page's first entry")
    log: list[Any] = Field(description="the entries, oldest first (messages)")


class LegalOut(SeatState):
    actions: list[ActionOut]


class OptionOut(BaseModel):
    name: str
    kind: str
    default: Any
    help: str
    choices: list[Any]
    minimum: int | None
    maximum: int | None


class GameOut(BaseModel):
    name: str
    title: str
    rules_version: int
    options: list[OptionOut]


class GamesOut(BaseModel):
    games: list[GameOut]
    seat_kinds: list[str]


class RankedAction(ActionOut):
    score: float = Field(description="the bot's evaluation; higher is better")


class AnalysisOut(BaseModel):
    """The current decision's legal actions ranked by a bot, best first (hints)."""

    table_id: int
    seq: int
    seat: int
    bot: str
    decision: MessageOut | None
    ranked: list[RankedAction]


class ReviewMove(BaseModel):
    text: str = Field(description="the action's text form")
    label: MessageOut
    chance: float = Field(description="the seat's chance of winning after it (or its "
                                      "evaluation where unit is 'evaluation')")


class CostlyMoveOut(BaseModel):
    move: int = Field(description="1-based position of the move in the record")
    seat: int
    played: ReviewMove
    suggested: ReviewMove = Field(description="what the expert would have played")
    loss: float = Field(description="suggested.chance - played.chance")


class CurvePoint(BaseModel):
    move: int = Field(description="moves played when a turn began (and at the end)")
    chances: list[float] = Field(description="each side's chance of winning")


class ReviewOut(BaseModel):
    """A finished game's review: each side's chance of winning over the game (sides:
    the seats, then any automaton) and each person's costliest moves."""

    table_id: int
    game: str
    players: int
    sides: list[str]
    unit: str = Field(description="'chance', or 'evaluation' for a one-side game whose "
                                  "chance model is not calibrated")
    calibrated: bool
    bot: str
    curve: list[CurvePoint]
    costly: dict[str, list[CostlyMoveOut]] = Field(description="per person's seat")


class RulesOut(BaseModel):
    """The rule text of the decision asked now, for players: its rule IDs (a reference)
    and the text without them (English; clients translate it by its catalogue)."""

    table_id: int
    seq: int
    rule_ids: list[str]
    text: str


class ErrorOut(BaseModel):
    detail: str


SeatState.model_rebuild()
ViewOut.model_rebuild()
LegalOut.model_rebuild()
RankedAction.model_rebuild()


class SignInIn(_Strict):
    email: StrictStr = Field(max_length=320, examples=["ada@example.org"],
                             description="the address to send the sign-in link to")


class SessionIn(_Strict):
    """Sign in: the token of a sign-in link, or an address and its password."""

    token: StrictStr | None = Field(default=None, min_length=1, max_length=200,
                                    description="the token of the sign-in link")
    email: StrictStr | None = Field(default=None, max_length=320)
    password: StrictStr | None = Field(default=None, max_length=200)


class PasswordIn(_Strict):
    password: StrictStr | None = Field(max_length=200,
                                       description="10 to 200 characters; null: none")


class SeatNotifyIn(_Strict):
    """A seat's turn notifications; null or omitted: none on that channel."""

    email: StrictStr | None = Field(default=None, max_length=320,
                                    description="an address, confirmed by a link first")
    webhook: StrictStr | None = Field(default=None, max_length=2048,
                                      description="an https:// URL to POST to")


class AccountNotifyIn(_Strict):
    """The account's turn notifications, for all its seats."""

    email: bool = Field(default=False, description="mail the account's own address")
    webhook: StrictStr | None = Field(default=None, max_length=2048,
                                      description="an https:// URL to POST to")
