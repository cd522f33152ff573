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
from typing import Dict, Optional, Union

from ._base_client import PreparedRequest, RawResponse
from ._exceptions import APIConnectionError, APITimeoutError

_Connection = Union[http.client.HTTPConnection, http.client.HTTPSConnection]


def send(request: PreparedRequest, timeout: float, ssl_context: Optional[ssl.SSLContext]) -> RawResponse:
    """Sends `request` and reads the whole answer, or raises `APITimeoutError` / `APIConnectionError`."""
    deadline = time.monotonic() + timeout
    connection = _connect_to(request, timeout, ssl_context)
    expired = threading.Event()

    def expire() -> None:
        expired.set()
        sock = connection.sock
        if sock is not None:
            try:
                # The plain socket's shutdown, also under TLS: it wakes a blocked recv without
                # touching the TLS object another thread is reading through.
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(timeout, expire)
    timer.daemon = True
    timer.start()
    try:
        connection.connect()
        if expired.is_set():
            raise APITimeoutError(timeout)
        target = request.url if request.proxy is not None and request.target.scheme == "http" else request.path
        connection.putrequest(request.method, target, skip_host=True, skip_accept_encoding=True)
        for name, value in request.headers.items():
            connection.putheader(name, value)
        if request.proxy is not None and request.proxy.authorization and request.target.scheme == "http":
            connection.putheader("Proxy-Authorization", request.proxy.authorization)
        connection.endheaders(request.body)
        response = connection.getresponse()
        body = response.read()
        headers: Dict[str, str] = {}
        for name, value in response.getheaders():
            key = name.lower()
            headers[key] = f"{headers[key]}, {value}" if key in headers else value
        if expired.is_set() or time.monotonic() > deadline:
            raise APITimeoutError(timeout)
        return RawResponse(response.status, headers, body)
    except (OSError, http.client.HTTPException) as error:
        if expired.is_set() or isinstance(error, socket.timeout):
            raise APITimeoutError(timeout) from None
        raise APIConnectionError(cause=error) from None
    finally:
        timer.cancel()
        connection.close()


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
