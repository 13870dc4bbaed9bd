"""Outgoing mail through the operator's SMTP relay (``meeplehall serve --smtp URL``).

``smtp://user:password@host:port`` speaks plain SMTP and upgrades with STARTTLS when
the relay offers it (port 587, say); ``smtps://`` opens TLS at once (port 465). The
user and password are optional (a relay on the same host may need none); the sender is
``?from=ADDRESS`` (default ``meeplehall@HOST``). Sending blocks: callers run it on a
worker thread, never on the event loop.
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

SMTP_TIMEOUT = 10.0  # seconds a connection to the relay, or one of its answers, may take
# Long header lines (List-Unsubscribe's URL) stay as they are, within RFC 5322's 998
# characters, instead of being encoded into words no mail client reads as a URL.
_POLICY = policy.SMTP.clone(max_line_length=998)


@dataclass(frozen=True, slots=True)
class Mail:
    """One message: plain text, with optional extra headers."""

    to: str
    subject: str
    body: str
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SmtpRelay:
    """Where and how to send mail."""

    host: str
    port: int
    tls: bool  # smtps: TLS from the first byte; else STARTTLS when offered
    sender: str
    user: str | None = None
    password: str | None = None

    @classmethod
    def from_url(cls, url: str) -> SmtpRelay:
        """Read ``smtp[s]://[user[:password]@]host[:port][?from=ADDRESS]``.

        Raises:
            ValueError: another scheme, or no host.
        """
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError(f"the SMTP relay must be smtp://... or smtps://..., not "
                             f"{parts.scheme or 'no scheme'}")
        if not parts.hostname:
            raise ValueError("the SMTP relay URL names no host")
        tls = parts.scheme == "smtps"
        sender = parse_qs(parts.query).get("from", [f"meeplehall@{parts.hostname}"])[0]
        return cls(parts.hostname, parts.port or (465 if tls else 25), tls, sender,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None)

    def describe(self) -> str:
        """The relay without its password, for the start banner."""
        who = f"{self.user}@" if self.user else ""
        return f"{'smtps' if self.tls else 'smtp'}://{who}{self.host}:{self.port}"

    def message(self, mail: Mail) -> EmailMessage:
        msg = EmailMessage(policy=_POLICY)
        msg["From"] = self.sender
        msg["To"] = mail.to
        msg["Subject"] = mail.subject
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        msg["Auto-Submitted"] = "auto-generated"
        for name, value in mail.headers:
            msg[name] = value
        msg.set_content(mail.body)
        return msg

    def send(self, mail: Mail) -> None:
        """Hand ``mail`` to the relay (blocking).

        Raises:
            OSError, smtplib.SMTPException: the relay could not be reached or refused it.
        """
        context = ssl.create_default_context()
        smtp: smtplib.SMTP
        if self.tls:
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=SMTP_TIMEOUT,
                                    context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=SMTP_TIMEOUT)
        with smtp:
            smtp.ehlo()
            if not self.tls and smtp.has_extn("starttls"):
                smtp.starttls(context=context)
                smtp.ehlo()
            if self.user:
                smtp.login(self.user, self.password or "")
            smtp.send_message(self.message(mail))
