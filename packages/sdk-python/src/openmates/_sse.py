"""An event stream decoder, as the HTML standard's "Server-sent events" section parses one
(https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation).

There is no SSE parser in the standard library and the SDK depends on nothing else, so this is the
standard's algorithm, written once and fed bytes as they arrive: UTF-8 with a leading BOM dropped
and invalid bytes replaced; lines ending in CRLF, LF or CR (a CR at the end of one read may be the
first half of a CRLF); a line starting with `:` is a comment (the server's keep-alive); `field:
value` with one leading space of the value dropped; `data` lines joined by LF; `event` names the
next event (`message` when absent); `id` sets the last event id (unless it contains NUL); `retry`
sets the reconnection time when it is all ASCII digits; a blank line dispatches the event, unless
it has no data; an event the stream ends in the middle of is never dispatched.
"""

import codecs
import re
from typing import List, NamedTuple, Optional

_LINE_END = re.compile(r"\r\n|\r|\n")


class ServerSentEvent(NamedTuple):
    """One dispatched event."""

    event: str
    """The event type: the last `event` field, else `message`."""
    data: str
    """The `data` lines, joined by LF."""
    id: str
    """The last event id the stream set, carried over from earlier events."""


class SSEDecoder:
    """Turns the bytes of an event stream into events, as they arrive: `feed` returns every event a
    chunk completes."""

    def __init__(self) -> None:
        self._text = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._started = False
        self._buffer = ""
        self._event = ""
        self._data = ""
        self.last_event_id = ""
        """The last `id` field's value (the HTML standard's "last event ID")."""
        self.retry: Optional[int] = None
        """The last valid `retry` field, in milliseconds. This SDK never reconnects (ADR 0040)."""
        self.comments = 0
        """How many comment lines were read (the server's keep-alives)."""

    def feed(self, chunk: bytes) -> List[ServerSentEvent]:
        """The events `chunk` completes, in order."""
        text = self._text.decode(chunk)
        if not self._started and text:
            self._started = True
            if text.startswith("\ufeff"):
                text = text[1:]
        self._buffer += text
        events: List[ServerSentEvent] = []
        start = 0
        while True:
            end = _LINE_END.search(self._buffer, start)
            # A CR that ends what has arrived so far may be followed by the LF of the same line end.
            if end is None or (end.group() == "\r" and end.end() == len(self._buffer)):
                break
            event = self._line(self._buffer[start : end.start()])
            if event is not None:
                events.append(event)
            start = end.end()
        self._buffer = self._buffer[start:]
        return events

    def _line(self, line: str) -> Optional[ServerSentEvent]:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            self.comments += 1
            return None
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field == "event":
            self._event = value
        elif field == "data":
            self._data += value + "\n"
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry":
            if value and all("0" <= c <= "9" for c in value):
                self.retry = int(value)
        # Any other field is ignored.
        return None

    def _dispatch(self) -> Optional[ServerSentEvent]:
        data, event = self._data, self._event
        self._data, self._event = "", ""
        if not data:
            return None
        return ServerSentEvent(event or "message", data[:-1], self.last_event_id)
