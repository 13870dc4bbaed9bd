"""Live updates written straight to a WebSocket's transport: one frame for many sockets.

A spectator update is the same text for every spectator that saw the same view (see
:meth:`meeplehall.server.live.Hub.update_text`). Sent through Starlette and uvicorn, each
socket still pays for the ASGI ``send`` chain, the WebSocket protocol object, framing the
text again and a task switch (about 55 µs of server CPU per socket; 1,500 spectators made
a move cost about 85 ms). Here the frame is encoded once (:func:`text_frame`) and its bytes
are handed to each socket's transport (:meth:`DirectFrames.write`): what is left per
socket is a few attribute checks and the socket write.

Why writing beside uvicorn's ``websockets-sansio`` protocol is safe (uvicorn 0.54, its
``WebSocketsSansIOProtocol``, and websockets' ``ServerProtocol``, both pinned):

- A server's frames are not masked (RFC 6455, section 5.1), so a frame's bytes depend
  only on its payload and opcode: the same bytes are right for every connection without
  an extension. ``ServerProtocol.send_text`` does nothing else for a complete text
  frame than check that the connection is open and no fragmented message is under way,
  and append ``Frame(TEXT, data).serialize(mask=False, extensions=...)`` to its outgoing
  buffer, which uvicorn's ``send`` writes to the transport in the same call. Sending
  leaves no other state in either object, so a frame written directly leaves both as a
  ``send`` through them would.
- Frames are written whole by one synchronous ``transport.write``; the event loop runs
  nothing else in between, so a frame never interleaves with one uvicorn writes (a pong,
  a keep-alive ping, a close). The order of the updates themselves is the hub's to keep:
  it writes directly only to a socket whose own sender task is idle (waiting for a
  wake-up), never while that task is building or sending a message.
- :meth:`DirectFrames.ready` refuses whenever a ``send`` would not simply write the
  frame: before the handshake's answer went out, or with an HTTP response instead of
  it; after the app sent its close, after a close frame came in, once the transport is
  closing or lost; with a negotiated extension (permessage-deflate compresses every
  message with the context of the ones before it, per connection: a frame compressed
  once cannot be shared, and one written beside it would break the stream); while the
  protocol object holds bytes it has not handed to the transport; and while the
  transport's buffer is above its high-water mark (uvicorn's ``writable`` is clear:
  its ``send`` would wait). Such a socket gets its update through its own task and the
  normal ``send`` (a slow reader then waits there, and later gets one catch-up message).

Any other ASGI server, or a test client, has no such protocol object:
:func:`direct_channel` answers None and every message goes through ``send``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

# The scope key under which the app keeps the server's ASGI ``send`` of a WebSocket
# (``MeeplehallApp.__call__``): the bound method of uvicorn's protocol object.
SEND_KEY = "meeplehall.asgi_send"


def text_frame(text: str) -> bytes:
    """One unmasked, unfragmented text frame carrying ``text``: the bytes websockets'
    ``ServerProtocol.send_text`` produces for it on a connection without extensions."""
    return Frame(Opcode.TEXT, text.encode("utf-8")).serialize(mask=False, extensions=[])


class DirectFrames:
    """One WebSocket connection of uvicorn's ``websockets-sansio`` implementation, to
    which whole frames can be written beside it (see the module's docstring)."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol

    @property
    def protocol(self) -> WebSocketsSansIOProtocol:
        return self._protocol

    def ready(self) -> bool:
        """True when a frame written now is what ``send`` would write now."""
        p = self._protocol
        conn = p.conn
        return (p.handshake_complete and p.initial_response is None and not p.close_sent
                and not p.disconnected and p.writable.is_set()
                and conn.state is State.OPEN and not conn.extensions
                and not conn.expect_continuation_frame and not conn.writes
                and not p.transport.is_closing())

    def write(self, frame: bytes) -> None:
        """Hand ``frame`` to the transport; only right after :meth:`ready` said True."""
        self._protocol.transport.write(frame)


def direct_channel(scope: Mapping[str, Any]) -> DirectFrames | None:
    """The connection of a WebSocket's ``scope`` when it is served by uvicorn's
    ``websockets-sansio`` protocol (its ``send`` recorded by the app), else None."""
    send = scope.get(SEND_KEY)
    protocol = getattr(send, "__self__", None)
    if type(protocol) is not WebSocketsSansIOProtocol:
        return None
    return DirectFrames(protocol)
