"""The blocking transport: one `http.client` connection per attempt, within a total deadline.

`http.client`'s own timeout applies to each socket operation, so a server that trickles a byte at a
time could keep a read going forever. A timer shuts the socket down when the attempt's deadline
passes, which ends whatever read or write is blocked; the attempt then raises `APITimeoutError`.
"""

import http.client
import socket
import ssl
import threading
import time
from typing import Dict, List, Optional, Union

from ._base_client import PreparedRequest, RawResponse, is_event_stream
from ._exceptions import APIConnectionError, APITimeoutError

_Connection = Union[http.client.HTTPConnection, http.client.HTTPSConnection]
_Socket = socket.socket


def send(request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext]) -> RawResponse:
    """Sends `request` and reads the whole answer, or raises `APITimeoutError` / `APIConnectionError`."""
    answer = _exchange(request, timeout, ssl_context, stream=False)
    assert isinstance(answer, RawResponse)
    return answer


def open_stream(
    request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext]
) -> Union[RawResponse, "StreamBody"]:
    """Sends `request`; a 2xx `text/event-stream` answer comes back open, as a `StreamBody` to read as
    it arrives, any other answer read whole. `timeout` is the deadline for the answer's head (and a
    whole body); each read of an open stream may then wait `timeout` for data."""
    return _exchange(request, timeout, ssl_context, stream=True)


class StreamBody:
    """An event stream as it arrives: the answer's headers, then its body one read at a time.
    `close()` shuts the socket down at once, so the server sees the client leave."""

    def __init__(
        self,
        sock: _Socket,
        connection: _Connection,
        response: http.client.HTTPResponse,
        headers: Dict[str, str],
        timeout: float,
    ) -> None:
        self._sock = sock
        self._connection = connection
        self._response = response
        self.headers = headers
        self._timeout = timeout
        self._closed = False

    def read_chunk(self) -> bytes:
        """The next bytes of the body as they arrive, or b"" at its end. A read that gets nothing for
        `timeout` seconds raises `APITimeoutError`; a broken connection `APIConnectionError`."""
        if self._closed:
            return b""
        try:
            return self._response.read1(_CHUNK)
        except socket.timeout:
            raise APITimeoutError(self._timeout, idle=True) from None
        except (OSError, http.client.HTTPException) as error:
            raise APIConnectionError("The event stream broke off before its last event.", cause=error) from None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        _shutdown(self._sock)
        self._response.close()
        self._connection.close()


_CHUNK = 64 * 1024


def _exchange(
    request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext], *, stream: bool
) -> Union[RawResponse, StreamBody]:
    deadline = time.monotonic() + timeout
    connection = _connect_to(request, timeout, ssl_context)
    expired = threading.Event()
    handed_over = False
    # The socket as connected: after an answer with `Connection: close`, http.client hands it to the
    # response and forgets it, but the deadline must still be able to wake a read blocked on it.
    sockets: List[_Socket] = []

    def expire() -> None:
        expired.set()
        for sock in sockets:
            _shutdown(sock)

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    try:
        connection.connect()
        if connection.sock is not None:
            sockets.append(connection.sock)
        if expired.is_set():
            raise APITimeoutError(timeout, url=request.url)
        target = request.url if request.proxy is not None and request.target.scheme == "http" else request.path
        connection.putrequest(request.method, target, skip_host=True, skip_accept_encoding=True)
        for name, value in request.headers.items():
            connection.putheader(name, value)
        if request.proxy is not None and request.proxy.authorization and request.target.scheme == "http":
            connection.putheader("Proxy-Authorization", request.proxy.authorization)
        connection.endheaders(request.body)
        response = connection.getresponse()
        headers: Dict[str, str] = {}
        for name, value in response.getheaders():
            key = name.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        if stream and 200 <= response.status < 300 and is_event_stream(headers) and sockets:
            timer.cancel()
            if expired.is_set():
                raise APITimeoutError(timeout, url=request.url)
            handed_over = True
            return StreamBody(sockets[0], connection, response, headers, timeout)
        body = response.read()
        if expired.is_set() or time.monotonic() > deadline:
            raise APITimeoutError(timeout, url=request.url)
        return RawResponse(response.status, headers, body)
    except (OSError, http.client.HTTPException) as error:
        if expired.is_set() or isinstance(error, socket.timeout):
            raise APITimeoutError(timeout, url=request.url) from None
        raise APIConnectionError(cause=error, url=request.url) from None
    finally:
        timer.cancel()
        if not handed_over:
            connection.close()


def _shutdown(sock: _Socket) -> None:
    """Shuts `sock` down, waking a read blocked on it in another thread."""
    try:
        # The plain socket's shutdown, also under TLS: it wakes a blocked recv without
        # touching the TLS object another thread is reading through.
        socket.socket.shutdown(sock, socket.SHUT_RDWR)
    except OSError:
        pass


def _connect_to(request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext]) -> _Connection:
    """An unconnected connection to the server, or to the proxy in front of it."""
    target, proxy = request.target, request.proxy
    if proxy is None:
        if target.scheme == "https":
            return http.client.HTTPSConnection(target.host, target.port, timeout=timeout, context=_context(ssl_context))
        return http.client.HTTPConnection(target.host, target.port, timeout=timeout)
    if target.scheme == "http":
        # A forward proxy: the request line carries the absolute URL.
        return http.client.HTTPConnection(proxy.endpoint.host, proxy.endpoint.port, timeout=timeout)
    # A CONNECT tunnel through the proxy, then TLS with the server inside it.
    connection = http.client.HTTPSConnection(
        proxy.endpoint.host, proxy.endpoint.port, timeout=timeout, context=_context(ssl_context)
    )
    tunnel_headers = {"Proxy-Authorization": proxy.authorization} if proxy.authorization else None
    connection.set_tunnel(target.host, target.port, headers=tunnel_headers)
    return connection


def _context(ssl_context: Optional[ssl.SSLContext]) -> ssl.SSLContext:
    return ssl_context if ssl_context is not None else ssl.create_default_context()
