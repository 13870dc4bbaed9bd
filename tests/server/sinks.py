"""A local SMTP sink and a local HTTP receiver for the notification tests (standard
library only): each keeps what it received, for the test to read."""

from __future__ import annotations

import email
import json
import socketserver
import threading
import time
from collections.abc import Callable
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _SmtpHandler(socketserver.StreamRequestHandler):
    server: _SmtpServer

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self) -> None:
        self.reply("220 sink ready")
        recipients: list[str] = []
        while True:
            raw = self.rfile.readline()
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            verb = line[:4].upper()
            if verb in ("EHLO", "HELO"):
                self.reply("250 sink")
            elif verb == "MAIL":
                recipients = []
                self.reply("250 ok")
            elif verb == "RCPT":
                recipients.append(line.split(":", 1)[1].strip().strip("<>"))
                self.reply("250 ok")
            elif verb == "DATA":
                self.reply("354 go on")
                lines: list[bytes] = []
                while True:
                    chunk = self.rfile.readline()
                    if chunk in (b".\r\n", b".\n", b""):
                        break
                    lines.append(chunk[1:] if chunk.startswith(b"..") else chunk)
                self.server.keep(recipients, email.message_from_bytes(b"".join(lines)))
                self.reply("250 queued")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("250 ok")


class _SmtpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _SmtpHandler)
        self.messages: list[tuple[list[str], Message]] = []
        self.lock = threading.Lock()

    def keep(self, recipients: list[str], message: Message) -> None:
        with self.lock:
            self.messages.append((recipients, message))


class SmtpSink:
    """An SMTP server on 127.0.0.1 that accepts every message and keeps it."""

    def __init__(self) -> None:
        self._server = _SmtpServer()
        self.port = self._server.server_address[1]
        self.url = f"smtp://127.0.0.1:{self.port}?from=hall@example.org"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def messages(self) -> list[tuple[list[str], Message]]:
        with self._server.lock:
            return list(self._server.messages)

    def to(self, address: str) -> list[Message]:
        return [m for r, m in self.messages if address in r]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


class HttpReceiver:
    """An HTTP server on 127.0.0.1 that answers 204 to every POST and keeps its JSON."""

    def __init__(self) -> None:
        received: list[dict[str, Any]] = []
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                data = json.loads(self.rfile.read(size))
                with lock:
                    received.append({"path": self.path, "json": data})
                self.send_response(204)
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self._received, self._lock = received, lock
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def received(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._received)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def until(check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for ``check()`` to hold (what another thread delivers), or fail: up to
    ``timeout`` seconds, which a loaded machine needs across two processes."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("not delivered in time")
        time.sleep(0.02)
