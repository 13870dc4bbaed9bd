"""Turn notifications: who asked to be told, the ``your-turn`` notices, and delivery by
e-mail and webhook.

**Publishing.** :meth:`Notifier.on_change` is one of the service's change listeners,
which run after a commit in the process that committed it only (a process that hears
of a change through Redis refreshes its table but calls no listener), so each turn's
notice is raised once, by one process. A seat's turn begins when a move leaves another
seat to move than the one that played it (the steps of one turn raise nothing), and
when a seat is joined while it is to move.

**Subscriptions.** A seat (with its token) may give an e-mail address and a webhook URL;
an account gives them for all its seats (its address is the one it signs in with). A
seat's subscription holds the hash of the token it was made with: when the seat changes
hands (given up, re-invited, moved to another device) it lapses. An e-mail address given
for a seat is written to once, with a confirmation link, and to nothing else until that
link is opened. Every message has a one-click unsubscribe link.

**Delivery** (every notice kind of :mod:`meeplehall.server.notices`: ``your-turn`` and
the deadlines' ``reminder`` and ``stand-in``) runs on this module's worker threads, never
on the event loop or the move's path. For each target a row of ``deliveries`` keyed by
the notice, the channel and the target is inserted first; a second process, or the
same notice raised again, finds the key taken and sends nothing. A message whose send
fails is marked ``failed`` and not sent again (at most one message per turn and target).
"""

from __future__ import annotations

import hashlib
import html
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from meeplehall.server.clock import Clock
from meeplehall.server.db import AccountRow, DeliveryRow, SeatRow, SubscriptionRow
from meeplehall.server.errors import Conflict, Invalid, NotFound
from meeplehall.server.mail import Mail, SmtpRelay
from meeplehall.server.notices import Notice, Notices
from meeplehall.server.security import hash_token, new_token
from meeplehall.server.service import TableService, games
from meeplehall.server.webhooks import BadWebhook, check_url, post

log = logging.getLogger("meeplehall.server.notify")

EMAIL, WEBHOOK = "email", "webhook"
NOTIFY_WORKERS = 2  # threads that send mail and call webhooks
MAX_EMAIL = 254


def clean_email(text: Any) -> str:
    """An e-mail address as stored: trimmed, lower-cased.

    Raises:
        Invalid: not a string shaped ``local@domain.tld`` of at most 254 characters.
    """
    if not isinstance(text, str):
        raise Invalid("an e-mail address must be a string")
    address = text.strip().lower()
    local, at, domain = address.rpartition("@")
    if (not at or not local or "." not in domain.strip(".") or len(address) > MAX_EMAIL
            or any(c.isspace() or ord(c) < 32 or c in "<>,;\"()[]\\" for c in address)
            or "@" in local):
        raise Invalid("that is not an e-mail address (name@example.org)")
    return address


@dataclass(frozen=True, slots=True)
class Target:
    """Where one notice goes: a channel, its address or URL, and the subscription's
    unsubscribe token."""

    channel: str
    target: str
    unsubscribe: str


class Notifier:
    """Raises ``your-turn`` notices and delivers every notice to its subscribers."""

    def __init__(self, service: TableService, notices: Notices, clock: Clock, *,
                 relay: SmtpRelay | None, public_url: str,
                 webhook_allow_private: bool = False) -> None:
        self.service = service
        self.notices = notices
        self.clock = clock
        self.relay = relay
        self.public_url = public_url.rstrip("/")
        self.allow_private = webhook_allow_private
        self._pool: ThreadPoolExecutor | None = None
        self._pending: set[Future[None]] = set()
        notices.subscribe(self.deliver)

    # -- links --------------------------------------------------------------------------

    def table_url(self, table_id: int) -> str:
        return f"{self.public_url}/#/table/{table_id}"

    def unsubscribe_url(self, token: str) -> str:
        return f"{self.public_url}/api/notify/unsubscribe?t={token}"

    # -- publishing ---------------------------------------------------------------------

    def on_change(self, table_id: int, seq: int, undo: bool) -> None:
        """A change listener: raise ``your-turn`` when a person's turn began (a seat
        that a bot plays is told nothing)."""
        live = self.service.cached(table_id)
        if undo or live is None or live.seq != seq:
            return
        to_move = live.to_move
        if to_move is None or not 0 <= to_move < len(live.seats):
            return
        last = live.entries[-1] if live.entries else None
        if last is not None and last.seq == seq and last.seat == to_move:
            return  # another step of the same seat's turn
        self._raise(table_id, to_move, seq, live.game.name)

    def on_seat(self, table_id: int, seat: int, token_hash: str | None) -> None:
        """A seat listener: a seat joined while it is to move has its turn begin now."""
        live = self.service.cached(table_id)
        if token_hash is None or live is None or live.to_move != seat:
            return
        self._raise(table_id, seat, live.seq, live.game.name)

    def _raise(self, table_id: int, seat: int, seq: int, game: str) -> None:
        live = self.service.cached(table_id)
        if live is None:
            return
        info = live.seats[seat]
        if info.bot is not None or not info.taken:
            return  # a bot moves for it (a bot seat, the host's hand-over, a stand-in)
        self.notices.publish(Notice("your-turn", table_id, seat, seq, self.clock.now(), game))

    # -- delivering ---------------------------------------------------------------------

    def _submit(self, fn: Callable[..., None], *args: Any) -> None:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(NOTIFY_WORKERS, thread_name_prefix="notify")
        future = self._pool.submit(fn, *args)
        self._pending.add(future)
        future.add_done_callback(self._pending.discard)

    def deliver(self, notice: Notice) -> None:
        """A notice subscriber: deliver it on a worker thread (never blocks)."""
        self._submit(self._deliver_sync, notice)

    def idle(self, timeout: float = 10.0) -> None:
        """Wait for the deliveries queued now to end (tests; a clean shutdown)."""
        wait(list(self._pending), timeout=timeout)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=False)

    def targets_sync(self, conn: Connection, table_id: int, seat: int) -> list[Target]:
        """The confirmed subscriptions that ``seat`` of ``table_id`` reaches now: the
        seat's own (made with its current token) and its account's, one per target."""
        row = conn.execute(select(SeatRow.token_hash, SeatRow.account_id).where(
            SeatRow.table_id == table_id, SeatRow.seat == seat)).first()
        if row is None or row.token_hash is None:
            return []
        mine = (SubscriptionRow.table_id == table_id) & (SubscriptionRow.seat == seat) & \
            (SubscriptionRow.seat_token == row.token_hash)
        if row.account_id is not None:
            mine = or_(mine, SubscriptionRow.account_id == row.account_id)
        found: dict[tuple[str, str], Target] = {}
        for sub in conn.execute(select(SubscriptionRow).where(
                mine, SubscriptionRow.confirmed.is_(True)).order_by(SubscriptionRow.id)):
            found.setdefault((sub.channel, sub.target),
                             Target(sub.channel, sub.target, sub.unsubscribe))
        return list(found.values())

    def _claim_sync(self, conn: Connection, key: str, table_id: int) -> bool:
        try:
            with conn.begin_nested():
                conn.execute(insert(DeliveryRow).values(
                    key=key, table_id=table_id, status="sending",
                    created_at=self.clock.now()))
        except IntegrityError:
            return False
        return True

    def _deliver_sync(self, notice: Notice) -> None:
        engine = self.service.engine
        with engine.connect() as conn:
            targets = self.targets_sync(conn, notice.table_id, notice.seat)
        for target in targets:
            if target.channel == EMAIL and self.relay is None:
                continue
            digest = hashlib.sha256(target.target.encode()).hexdigest()[:32]
            key = f"{notice.key}|{target.channel}|{digest}"
            if not self.service.write_now(partial(self._claim_sync, key=key,
                                                  table_id=notice.table_id)):
                continue
            status = "sent"
            try:
                if target.channel == EMAIL:
                    assert self.relay is not None
                    self.relay.send(self.turn_mail(notice, target))
                else:
                    post(target.target, self.webhook_body(notice), self.allow_private)
            except Exception as exc:  # the relay or the receiver is down: not retried
                status = "failed"
                log.warning("notice %s by %s failed: %s", notice.key, target.channel,
                            type(exc).__name__)
            self.service.write_now(partial(_mark_delivery, key=key, status=status))

    def webhook_body(self, notice: Notice) -> dict[str, Any]:
        return {"kind": notice.kind, "game": notice.game, "table": notice.table_id,
                "seat": notice.seat, "url": self.table_url(notice.table_id),
                "deadline": None if notice.deadline is None else notice.deadline.isoformat()}

    def turn_mail(self, notice: Notice, target: Target) -> Mail:
        game = games().get(notice.game)
        title = (game.title or game.name) if game is not None else notice.game
        where = f"table {notice.table_id} ({title}), seat {notice.seat + 1}"
        subject, first = {
            "your-turn": (f"Your turn: {title}, table {notice.table_id}",
                          f"It is your turn at {where}."),
            "reminder": (f"Reminder: your turn at {title}, table {notice.table_id}",
                         f"Your turn at {where} is waiting and its deadline is near."),
            "stand-in": (f"A bot played for you: {title}, table {notice.table_id}",
                         f"Your turn deadline at {where} passed, so a bot played for "
                         "you. Come back to take the seat again."),
        }[notice.kind]
        deadline = "" if notice.deadline is None else \
            f"\nTurn deadline: {notice.deadline.strftime('%Y-%m-%d %H:%M')} UTC\n"
        link = self.unsubscribe_url(target.unsubscribe)
        body = (f"{first}\n{deadline}\nOpen the table: {self.table_url(notice.table_id)}\n\n"
                f"You get this because you asked to be told when it is your turn.\n"
                f"Stop these messages: {link}\n")
        return Mail(target.target, subject, body, (
            ("List-Unsubscribe", f"<{link}>"),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")))

    # -- subscriptions ------------------------------------------------------------------

    def check_webhook(self, url: str) -> str:
        try:
            return check_url(url, self.allow_private)
        except BadWebhook as exc:
            raise Invalid(str(exc)) from None

    def _settings_sync(self, conn: Connection, where: Any) -> dict[str, Any]:
        out: dict[str, Any] = {EMAIL: None, WEBHOOK: None}
        for sub in conn.execute(select(SubscriptionRow).where(where)):
            out[sub.channel] = {"target": sub.target, "confirmed": bool(sub.confirmed)}
        return out

    @staticmethod
    def _seat_where(table_id: int, seat: int, token_hash: str) -> Any:
        return (SubscriptionRow.table_id == table_id) & (SubscriptionRow.seat == seat) & \
            (SubscriptionRow.seat_token == token_hash)

    async def seat_settings(self, table_id: int, seat: int, token_hash: str) -> dict[str, Any]:
        where = self._seat_where(table_id, seat, token_hash)
        return await self.service.read(lambda c: self._settings_sync(c, where))

    async def set_seat(self, table_id: int, seat: int, token_hash: str, email: str | None,
                       webhook: str | None) -> dict[str, Any]:
        """Replace the seat's subscriptions. A new e-mail address gets a confirmation
        mail, and nothing else until it is confirmed; an unchanged one keeps its state."""
        if email is not None and self.relay is None:
            raise Conflict("this server sends no e-mail (it has no SMTP relay)")
        address = None if email is None else clean_email(email)
        url = None if webhook is None else self.check_webhook(webhook)
        where = self._seat_where(table_id, seat, token_hash)
        confirm = new_token()

        def write(conn: Connection) -> bool:
            old = {s.channel: s for s in conn.execute(select(SubscriptionRow).where(where))}
            # subscriptions made with an earlier token of the seat lapsed: drop them
            conn.execute(delete(SubscriptionRow).where(
                SubscriptionRow.table_id == table_id, SubscriptionRow.seat == seat,
                SubscriptionRow.seat_token != token_hash))
            send = False
            for channel, value in ((EMAIL, address), (WEBHOOK, url)):
                kept = old.get(channel)
                if kept is not None and kept.target == value:
                    continue
                if kept is not None:
                    conn.execute(delete(SubscriptionRow).where(SubscriptionRow.id == kept.id))
                if value is None:
                    continue
                conn.execute(insert(SubscriptionRow).values(
                    table_id=table_id, seat=seat, account_id=None, seat_token=token_hash,
                    channel=channel, target=value, confirmed=channel == WEBHOOK,
                    confirm_hash=hash_token(confirm) if channel == EMAIL else None,
                    unsubscribe=secrets.token_urlsafe(24), created_at=self.clock.now()))
                send = send or channel == EMAIL
            return send

        if await self.service.transact(write):
            assert address is not None
            self.send_mail(self.confirm_mail(address, table_id, seat, confirm))
        return await self.seat_settings(table_id, seat, token_hash)

    async def account_settings(self, account_id: int) -> dict[str, Any]:
        where = SubscriptionRow.account_id == account_id
        return await self.service.read(lambda c: self._settings_sync(c, where))

    async def set_account(self, account_id: int, email: bool, webhook: str | None
                          ) -> dict[str, Any]:
        """Replace the account's subscriptions: its own address (confirmed by signing
        in) when ``email``, and a webhook."""
        if email and self.relay is None:
            raise Conflict("this server sends no e-mail (it has no SMTP relay)")
        url = None if webhook is None else self.check_webhook(webhook)

        def write(conn: Connection) -> None:
            address = conn.execute(select(AccountRow.email).where(
                AccountRow.id == account_id)).scalar_one_or_none()
            if address is None:
                raise NotFound("the account is gone")
            where = SubscriptionRow.account_id == account_id
            old = {s.channel: s for s in conn.execute(select(SubscriptionRow).where(where))}
            for channel, value in ((EMAIL, address if email else None), (WEBHOOK, url)):
                kept = old.get(channel)
                if kept is not None and kept.target == value:
                    continue
                if kept is not None:
                    conn.execute(delete(SubscriptionRow).where(SubscriptionRow.id == kept.id))
                if value is not None:
                    conn.execute(insert(SubscriptionRow).values(
                        table_id=None, seat=None, account_id=account_id, seat_token=None,
                        channel=channel, target=value, confirmed=True, confirm_hash=None,
                        unsubscribe=secrets.token_urlsafe(24), created_at=self.clock.now()))

        await self.service.transact(write)
        return await self.account_settings(account_id)

    async def confirm(self, token: str) -> str | None:
        """Confirm the address whose confirmation link holds ``token``; the address, or
        None for a link that is unknown or used."""
        digest = hash_token(token)

        def write(conn: Connection) -> str | None:
            sub = conn.execute(select(SubscriptionRow.id, SubscriptionRow.target).where(
                SubscriptionRow.confirm_hash == digest)).first()
            if sub is None:
                return None
            conn.execute(update(SubscriptionRow).where(SubscriptionRow.id == sub.id)
                         .values(confirmed=True, confirm_hash=None))
            return str(sub.target)

        return await self.service.transact(write)

    async def unsubscribe(self, token: str) -> str | None:
        """Delete the subscription of an unsubscribe link; its target, or None."""
        def write(conn: Connection) -> str | None:
            sub = conn.execute(select(SubscriptionRow.id, SubscriptionRow.target).where(
                SubscriptionRow.unsubscribe == token)).first()
            if sub is None:
                return None
            conn.execute(delete(SubscriptionRow).where(SubscriptionRow.id == sub.id))
            return str(sub.target)

        return await self.service.transact(write)

    # -- mail ---------------------------------------------------------------------------

    def send_mail(self, mail: Mail) -> None:
        """Send ``mail`` on a worker thread (a failure is logged, not raised)."""
        relay = self.relay
        if relay is None:
            return

        def send() -> None:
            try:
                relay.send(mail)
            except Exception as exc:
                log.warning("mail to the relay failed: %s", type(exc).__name__)

        self._submit(send)

    async def mail_addresses(self, table_id: int, seat: int) -> list[str]:
        """The confirmed e-mail addresses that reach ``seat`` of ``table_id`` now (its
        own turn notifications' and its account's)."""
        def read(conn: Connection) -> list[str]:
            return [t.target for t in self.targets_sync(conn, table_id, seat)
                    if t.channel == EMAIL]

        return await self.service.read(read)

    def recovery_mail(self, address: str, table_id: int, seat: int, path: str) -> Mail:
        """The message that carries a seat's one-time recovery link."""
        return Mail(address, f"Move your seat at meeplehall table {table_id}", (
            f"You asked for a link that moves your seat (table {table_id}, seat "
            f"{seat + 1}) to another device. Open it there, once:\n{self.public_url}/{path}"
            "\n\nThe device you play on now stops playing the seat when the link is "
            "opened. If it was not you, ignore this message: nothing changes until the "
            "link is opened.\n"))

    def confirm_mail(self, address: str, table_id: int, seat: int, token: str) -> Mail:
        link = f"{self.public_url}/api/notify/confirm?t={token}"
        return Mail(address, "Confirm turn notifications from meeplehall", (
            f"Someone asked meeplehall to tell {address} when it is their turn at table "
            f"{table_id}, seat {seat + 1}.\n\nTo receive these messages, open this link:\n"
            f"{link}\n\nIf it was not you, ignore this message: nothing more will be "
            "sent to this address.\n"))


def _mark_delivery(conn: Connection, key: str, status: str) -> None:
    """Record how the delivery ``key`` went (``sent`` or ``failed``)."""
    conn.execute(update(DeliveryRow).where(DeliveryRow.key == key).values(status=status))


def page(title: str, text: str) -> str:
    """A tiny HTML page for the links opened from mail (confirm, unsubscribe)."""
    return (f"<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>"
            f"{html.escape(title)}</title><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(text)}</p><p><a href=\"/\">meeplehall</a></p></html>")
