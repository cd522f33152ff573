"""The asyncio transport: one connection per attempt over asyncio streams, within a total deadline.

HTTP/1.1 is written and read here directly (the standard library has no asyncio HTTP client): a
request with `Connection: close`, then a status line, headers, and a body framed by
`Content-Length`, chunked transfer coding or the end of the connection. The attempt runs under a
deadline (`within`); on the deadline or on the caller's cancellation the `finally` aborts the
transport, so the connection is closed at once, never left to the garbage collector.
"""

import asyncio
import socket
import ssl
from typing import AsyncIterator, Awaitable, Callable, Dict, Optional, Tuple, TypeVar, Union

from ._base_client import Endpoint, PreparedRequest, Proxy, RawResponse, is_event_stream
from ._exceptions import APIConnectionError, APITimeoutError

_MAX_HEADER_BYTES = 64 * 1024
_CHUNK = 64 * 1024


async def send(request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext]) -> RawResponse:
    """Sends `request` and reads the whole answer, or raises `APITimeoutError` / `APIConnectionError`."""
    answer = await _exchange(request, timeout, ssl_context, stream=False)
    assert isinstance(answer, RawResponse)
    return answer


async def open_stream(
    request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext]
) -> Union[RawResponse, "StreamBody"]:
    """Sends `request`; a 2xx `text/event-stream` answer comes back open, as a `StreamBody` to read as
    it arrives, any other answer read whole. `timeout` is the deadline for the answer's head (and a
    whole body); each read of an open stream may then wait `timeout` for data."""
    return await _exchange(request, timeout, ssl_context, stream=True)


class _ProtocolError(Exception):
    """The peer did not speak HTTP/1.x as expected."""


_ERRORS = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, _ProtocolError)

T = TypeVar("T")


def _keep(_: object) -> None:
    """A late result that holds nothing to release."""


async def within(awaitable: Awaitable[T], timeout: float, discard: Callable[[T], None] = _keep) -> T:
    """`asyncio.wait_for(awaitable, timeout)`, except that the caller's cancellation always wins.
    Before Python 3.12, `wait_for` returned the result when it arrived together with the
    cancellation, and the cancellation was lost: a task cancelled while it read an event stream
    went on reading. Here the cancellation is raised, and a result that arrived with it is handed
    to `discard` (to close what it holds). On the deadline, raises `asyncio.TimeoutError`."""
    task = asyncio.ensure_future(awaitable)
    try:
        await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        await asyncio.wait({task})
        if not task.cancelled() and task.exception() is None:
            discard(task.result())
        raise
    if not task.done():
        task.cancel()
        await asyncio.wait({task})
        if task.cancelled():
            raise asyncio.TimeoutError
    return task.result()


class StreamBody:
    """An event stream as it arrives: the answer's headers, then its body one read at a time.
    `close()` aborts the connection at once, so the server sees the client leave."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, headers: Dict[str, str], timeout: float
    ) -> None:
        self._writer = writer
        self._chunks = _body_chunks(reader, headers)
        self.headers = headers
        self._timeout = timeout
        self._closed = False

    async def read_chunk(self) -> bytes:
        """The next bytes of the body as they arrive, or b"" at its end. A read that gets nothing for
        `timeout` seconds raises `APITimeoutError`; a broken connection `APIConnectionError`."""
        if self._closed:
            return b""
        try:
            return await within(self._chunks.__anext__(), self._timeout)
        except StopAsyncIteration:
            return b""
        except asyncio.TimeoutError:
            raise APITimeoutError(self._timeout, idle=True) from None
        except _ERRORS as error:
            raise APIConnectionError("The event stream broke off before its last event.", cause=error) from None

    def close(self) -> None:
        """Aborts the connection (synchronous: safe from `finally`, on cancellation, and from `__del__`)."""
        if self._closed:
            return
        self._closed = True
        self._writer.transport.abort()


async def _exchange(
    request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext], *, stream: bool
) -> Union[RawResponse, StreamBody]:
    try:
        return await within(_attempt(request, ssl_context, timeout, stream), timeout, _close)
    except asyncio.TimeoutError:
        raise APITimeoutError(timeout, url=request.url) from None
    except _ERRORS as error:
        raise APIConnectionError(cause=error, url=request.url) from None


def _close(answer: Union[RawResponse, StreamBody]) -> None:
    """Closes an answer nobody will read (its caller was cancelled as it arrived)."""
    if isinstance(answer, StreamBody):
        answer.close()


async def _attempt(
    request: PreparedRequest, ssl_context: Optional[ssl.SSLContext], timeout: float, stream: bool
) -> Union[RawResponse, StreamBody]:
    reader, writer = await _open(request, ssl_context)
    handed_over = False
    try:
        writer.write(_head(request) + (request.body or b""))
        await writer.drain()
        status, headers = await _read_head(reader)
        while 100 <= status < 200:  # an interim answer (such as 100 Continue) precedes the real one
            status, headers = await _read_head(reader)
        if stream and 200 <= status < 300 and is_event_stream(headers):
            handed_over = True
            return StreamBody(reader, writer, headers, timeout)
        return RawResponse(status, headers, b"".join([chunk async for chunk in _body_chunks(reader, headers)]))
    finally:
        # abort(), not close(): nothing more is owed to the peer, and on cancellation there is no
        # time to wait for a graceful close.
        if not handed_over:
            writer.transport.abort()


async def _open(
    request: PreparedRequest, ssl_context: Optional[ssl.SSLContext]
) -> Tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    target, proxy = request.target, request.proxy
    context = (ssl_context or ssl.create_default_context()) if target.scheme == "https" else None
    if proxy is None:
        return await asyncio.open_connection(
            target.host, target.port, ssl=context, server_hostname=target.host if context else None
        )
    if context is None:
        # A forward proxy: the request line carries the absolute URL (see `_head`).
        return await asyncio.open_connection(proxy.endpoint.host, proxy.endpoint.port)
    sock = await _tunnel(proxy, target)
    try:
        return await asyncio.open_connection(sock=sock, ssl=context, server_hostname=target.host)
    except BaseException:
        sock.close()
        raise


async def _tunnel(proxy: Proxy, target: Endpoint) -> socket.socket:
    """A socket through which the proxy relays bytes to `target` (HTTP CONNECT)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(proxy.endpoint.host, proxy.endpoint.port, type=socket.SOCK_STREAM)
    if not infos:
        raise OSError(f"cannot resolve the proxy {proxy.endpoint.host}")
    family, kind, protocol, _, address = infos[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setblocking(False)
        await loop.sock_connect(sock, address)
        authority = f"[{target.host}]:{target.port}" if ":" in target.host else f"{target.host}:{target.port}"
        lines = [f"CONNECT {authority} HTTP/1.1", f"Host: {authority}"]
        if proxy.authorization:
            lines.append(f"Proxy-Authorization: {proxy.authorization}")
        await loop.sock_sendall(sock, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = b""
        # Byte by byte, so nothing that belongs to the tunnel is read past the proxy's answer.
        while not head.endswith(b"\r\n\r\n"):
            chunk = await loop.sock_recv(sock, 1)
            if not chunk or len(head) > _MAX_HEADER_BYTES:
                raise _ProtocolError("the proxy closed the connection during CONNECT")
            head += chunk
        status_line = head.split(b"\r\n", 1)[0].split()
        if len(status_line) < 2 or status_line[1] != b"200":
            raise _ProtocolError(f"the proxy refused CONNECT ({b' '.join(status_line[1:]).decode('latin-1')})")
        return sock
    except BaseException:
        sock.close()
        raise


def _head(request: PreparedRequest) -> bytes:
    forward = request.proxy is not None and request.target.scheme == "http"
    lines = [f"{request.method} {request.url if forward else request.path} HTTP/1.1"]
    lines.extend(f"{name}: {value}" for name, value in request.headers.items())
    if forward and request.proxy is not None and request.proxy.authorization:
        lines.append(f"Proxy-Authorization: {request.proxy.authorization}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")


async def _read_head(reader: asyncio.StreamReader) -> Tuple[int, Dict[str, str]]:
    status_line = (await reader.readuntil(b"\r\n")).decode("latin-1").rstrip("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise _ProtocolError("the server did not answer HTTP/1.x")
    headers: Dict[str, str] = {}
    size = 0
    while True:
        line = (await reader.readuntil(b"\r\n")).decode("latin-1").rstrip("\r\n")
        if not line:
            return int(parts[1]), headers
        size += len(line)
        if size > _MAX_HEADER_BYTES or ":" not in line:
            raise _ProtocolError("malformed or oversized response headers")
        name, value = line.split(":", 1)
        key = name.strip().lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()


async def _body_chunks(reader: asyncio.StreamReader, headers: Dict[str, str]) -> AsyncIterator[bytes]:
    """The body as it arrives, framed by chunked transfer coding, `Content-Length` or the end of the
    connection."""
    if "chunked" in headers.get("transfer-encoding", "").lower():
        while True:
            size_line = (await reader.readuntil(b"\r\n")).split(b";", 1)[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                raise _ProtocolError("malformed chunk size") from None
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
                    pass
                return
            yield await reader.readexactly(size)
            await reader.readexactly(2)
    length = headers.get("content-length")
    if length is not None:
        if not length.isdigit():
            raise _ProtocolError("malformed Content-Length")
        left = int(length)
        while left > 0:
            chunk = await reader.read(min(left, _CHUNK))
            if not chunk:
                raise asyncio.IncompleteReadError(chunk, left)
            left -= len(chunk)
            yield chunk
        return
    while True:
        chunk = await reader.read(_CHUNK)
        if not chunk:
            return
        yield chunk
