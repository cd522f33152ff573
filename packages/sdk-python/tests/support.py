"""What the tests run against: the real server on the Brave fixture (started by tests/serve.ts), and
small socket servers for what a real server will not do on demand (trickle bytes, hold an answer,
drop a connection), a forward/CONNECT proxy and a TLS front. All bind 127.0.0.1 on port 0."""

import json
import os
import queue
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Callable, Dict, List, Mapping, Optional, Tuple, cast

PACKAGE_DIR = Path(__file__).resolve().parent.parent
WAIT = 30.0
"""Upper bound of a causal wait (a log line, a closed socket); reached only when a test is failing."""

_PROXY_VARIABLES = ("http_proxy", "https_proxy", "no_proxy", "all_proxy")


def clean_env() -> Dict[str, str]:
    """This process's environment without proxy settings or OpenMates client settings."""
    return {
        key: value
        for key, value in os.environ.items()
        if key.lower() not in _PROXY_VARIABLES and key not in ("OPENMATES_API_URL", "OPENMATES_API_KEY")
    }


class Server:
    """A real OpenMates server (the handler `openmates serve` runs) on a Brave fixture, with `env`."""

    url: str
    canary: str
    """The fixture's Brave key: it must never reach anything the SDK hands its caller."""

    def __init__(self, env: Optional[Mapping[str, str]] = None) -> None:
        node = shutil.which("node")
        if node is None:
            raise RuntimeError("node is not on PATH: source scripts/bootstrap.sh first")
        self._process = subprocess.Popen(
            [node, str(PACKAGE_DIR / "tests" / "serve.ts")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**clean_env(), **(env or {})},
            cwd=PACKAGE_DIR,
        )
        self._lines: List[Dict[str, object]] = []
        self._changed = threading.Condition()
        self._stderr: List[str] = []
        self._log_reader = threading.Thread(target=self._read_log, args=(self._process.stderr,), daemon=True)
        self._log_reader.start()
        first = cast(IO[bytes], self._process.stdout).readline()
        if not first:
            self._process.wait(WAIT)
            raise RuntimeError(f"tests/serve.ts did not start: {''.join(self._stderr)[-2000:]}")
        started = cast(Dict[str, str], json.loads(first))
        self.url = started["url"]
        self.canary = started["canary"]
        self._answers: "queue.Queue[Dict[str, object]]" = queue.Queue()
        self._commands = threading.Lock()
        self._answer_reader = threading.Thread(target=self._read_answers, args=(self._process.stdout,), daemon=True)
        self._answer_reader.start()

    def _read_answers(self, stream: Optional[IO[bytes]]) -> None:
        for raw in cast(IO[bytes], stream):
            self._answers.put(cast(Dict[str, object], json.loads(raw)))

    def _command(self, op: str, n: int = 1) -> Dict[str, object]:
        """Runs one command of the Brave fixture's `hold` gate in tests/serve.ts and returns its answer."""
        with self._commands:
            stdin = cast(IO[bytes], self._process.stdin)
            stdin.write((json.dumps({"op": op, "n": n}) + "\n").encode("utf-8"))
            stdin.flush()
            try:
                answer = self._answers.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError(f"the fixture did not answer {op} {n} within {WAIT} s") from None
        if answer.get("ok") is not True:
            raise AssertionError(f"the fixture refused {op}: {answer}")
        return answer

    def wait_for_held(self, n: int) -> None:
        """Blocks until `n` calls of the `hold` scenario are held at the fixture, waiting for `release()`."""
        self._command("held", n)

    def release(self) -> None:
        """Lets every call held at that moment answer (not sticky: a call held later waits again)."""
        self._command("release")

    def wait_for_aborted(self, n: int) -> int:
        """Blocks until `n` held calls were given up by their client (the server aborted them); returns the count."""
        return cast(int, self._command("aborted", n)["aborted"])

    def reset_fixture(self) -> None:
        """Forgets the fixture's recorded calls and its count of aborted held calls."""
        self._command("reset")

    def _read_log(self, stream: Optional[IO[bytes]]) -> None:
        for raw in cast(IO[bytes], stream):
            text = raw.decode("utf-8", errors="replace")
            with self._changed:
                self._stderr.append(text)
                try:
                    line: object = json.loads(text)
                except ValueError:
                    continue
                if isinstance(line, dict):
                    self._lines.append(cast(Dict[str, object], line))
                    self._changed.notify_all()

    def log_text(self) -> str:
        """Everything the server wrote to its log."""
        with self._changed:
            return "".join(self._stderr)

    def http_lines(self) -> List[Dict[str, object]]:
        """The server's `http` log lines so far, one per answered request, in order."""
        with self._changed:
            return [line for line in self._lines if line.get("event") == "http"]

    def http_lines_until(self, request_id: str) -> List[Dict[str, object]]:
        """The `http` lines up to and including the one of `request_id`, waiting until it is logged."""
        with self._changed:
            found = self._changed.wait_for(
                # The http line itself: the engine logs lines with the same request id before it.
                lambda: any(
                    line.get("event") == "http" and line.get("request_id") == request_id for line in self._lines
                ),
                WAIT,
            )
            if not found:
                raise AssertionError(f"the server never logged request {request_id}")
            lines = [line for line in self._lines if line.get("event") == "http"]
        index = next(i for i, line in enumerate(lines) if line.get("request_id") == request_id)
        return lines[: index + 1]

    def close(self) -> None:
        cast(IO[bytes], self._process.stdin).close()
        try:
            self._process.wait(WAIT)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        # The process is gone: both readers reach the end of their pipe, then the pipes are closed.
        self._answer_reader.join(WAIT)
        self._log_reader.join(WAIT)
        cast(IO[bytes], self._process.stdout).close()
        cast(IO[bytes], self._process.stderr).close()


def start_servers(configs: Mapping[str, Mapping[str, str]]) -> Dict[str, Server]:
    """A `Server` for each named environment, started side by side."""
    with ThreadPoolExecutor(len(configs)) as pool:
        return dict(zip(configs, pool.map(Server, configs.values())))


def close_servers(servers: Mapping[str, Server]) -> None:
    for server in servers.values():
        server.close()


Handler = Callable[[socket.socket], None]


class SocketServer:
    """A TCP server on 127.0.0.1 that hands every connection to `handler` on its own thread."""

    def __init__(self, handler: Handler) -> None:
        self._handler = handler
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.connections = 0
        """Connections accepted so far."""
        self.peer_closed = threading.Event()
        """Set when a handler saw the client close its connection."""
        self.received = threading.Event()
        """Set when a handler has read a request head."""
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        with connection:
            try:
                self._handler(connection)
            except OSError:
                pass

    def close(self) -> None:
        self._listener.close()


def read_head(connection: socket.socket) -> bytes:
    """Reads up to the end of a request's or response's head."""
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = connection.recv(65536)
        if not chunk:
            break
        head += chunk
    return head


def wait_for_close(server: SocketServer, connection: socket.socket) -> None:
    """Blocks until the client closes `connection` (gracefully or with a reset), then sets `server.peer_closed`."""
    try:
        while connection.recv(65536):
            pass
    except OSError:
        pass
    server.peer_closed.set()


def trickling_server() -> SocketServer:
    """Answers 200 with a long body, one byte at a time, for as long as the client keeps reading."""

    def handle(connection: socket.socket) -> None:
        read_head(connection)
        server.received.set()
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
        stop = threading.Event()
        try:
            # Pacing only: each byte keeps a per-read timeout from ever firing.
            while not stop.wait(0.05):
                connection.sendall(b" ")
        except OSError:
            server.peer_closed.set()

    server = SocketServer(handle)
    return server


def holding_server() -> SocketServer:
    """Reads a request and never answers; records when the client closes the connection."""

    def handle(connection: socket.socket) -> None:
        read_head(connection)
        server.received.set()
        wait_for_close(server, connection)

    server = SocketServer(handle)
    return server


def answering_server(status: int, body: bytes, headers: Tuple[str, ...] = ()) -> SocketServer:
    """Answers every request with `status` and `body` (a stand-in for a proxy's or a gateway's page)."""

    def handle(connection: socket.socket) -> None:
        read_head(connection)
        head = [f"HTTP/1.1 {status} Status", f"Content-Length: {len(body)}", "Connection: close", *headers]
        connection.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)

    return SocketServer(handle)


def chunked_server(body: bytes) -> SocketServer:
    """Answers 200 with `body` in chunked transfer coding, a few bytes per chunk, and a trailer."""

    def handle(connection: socket.socket) -> None:
        read_head(connection)
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i : i + 7]), body[i : i + 7]) for i in range(0, len(body), 7))
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        connection.sendall(head + chunks + b"0\r\nX-Trailer: yes\r\n\r\n")

    return SocketServer(handle)


def dropping_server() -> SocketServer:
    """Accepts a connection and closes it without a word: a connection failure the SDK retries."""

    def handle(connection: socket.socket) -> None:
        read_head(connection)

    return SocketServer(handle)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _pipe(source: socket.socket, sink: socket.socket, on_head: Optional[Callable[[bytes], None]] = None) -> None:
    head = b""
    try:
        while True:
            chunk = source.recv(65536)
            if not chunk:
                break
            if on_head is not None:
                head += chunk
                if b"\r\n\r\n" in head:
                    on_head(head.split(b"\r\n\r\n", 1)[0])
                    on_head = None
            sink.sendall(chunk)
    except OSError:
        pass
    finally:
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def _relay(
    client: socket.socket,
    upstream: socket.socket,
    first: bytes = b"",
    on_answer: Optional[Callable[[bytes], None]] = None,
) -> None:
    with upstream:
        if first:
            upstream.sendall(first)
        other = threading.Thread(target=_pipe, args=(upstream, client, on_answer), daemon=True)
        other.start()
        _pipe(client, upstream)
        other.join(WAIT)


class Proxy(SocketServer):
    """An HTTP proxy: `CONNECT host:port` tunnels, and absolute-URI requests forwarded as origin-form.
    Records each request's first line and headers, and the status and headers of each forwarded answer."""

    def __init__(self) -> None:
        self.requests: List[Tuple[str, Dict[str, str]]] = []
        self.answers: List[Tuple[int, Dict[str, str]]] = []
        super().__init__(self._handle)

    def _record_answer(self, head: bytes) -> None:
        lines = head.decode("latin-1").split("\r\n")
        self.answers.append((int(lines[0].split(" ")[1]), _headers(lines[1:])))

    def _handle(self, connection: socket.socket) -> None:
        head = read_head(connection)
        head_text, _, rest = head.partition(b"\r\n\r\n")
        lines = head_text.decode("latin-1").split("\r\n")
        self.requests.append((lines[0], _headers(lines[1:])))
        method, target, version = lines[0].split(" ", 2)
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            upstream = socket.create_connection((host, int(port)))
            connection.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            _relay(connection, upstream, rest)
            return
        # http://host:port/path -> GET /path, to host:port
        authority, _, path = target.split("://", 1)[1].partition("/")
        host, _, port = authority.rpartition(":")
        upstream = socket.create_connection((host, int(port or 80)))
        kept = [h for h in lines[1:] if not h.lower().startswith("proxy-")]
        forwarded = "\r\n".join([f"{method} /{path} {version}", *kept]).encode("latin-1") + b"\r\n\r\n" + rest
        _relay(connection, upstream, forwarded, self._record_answer)


class Tap(SocketServer):
    """A TCP relay on 127.0.0.1 to `port` that records every byte the server sends back as it passes,
    so a test can wait for what the client has been sent. With `cut_after_first_event`, it closes both
    connections right after passing on the first complete SSE event: a stream that breaks off."""

    def __init__(self, port: int, *, cut_after_first_event: bool = False) -> None:
        self._upstream_port = port
        self._cut = cut_after_first_event
        self._sent = b""
        self._changed = threading.Condition()
        super().__init__(self._handle)

    def count(self, needle: bytes) -> int:
        """How often `needle` occurs in what the server sent so far."""
        with self._changed:
            return self._sent.count(needle)

    def wait_for(self, needle: bytes, times: int) -> None:
        """Blocks until the server has sent `needle` at least `times` times (passed on to the client)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._sent.count(needle) >= times, WAIT):
                raise AssertionError(f"the server never sent {needle!r} {times} times")

    def _handle(self, connection: socket.socket) -> None:
        with socket.create_connection(("127.0.0.1", self._upstream_port)) as upstream:
            threading.Thread(target=_pipe, args=(connection, upstream), daemon=True).start()
            try:
                while True:
                    chunk = upstream.recv(65536)
                    if not chunk:
                        break
                    connection.sendall(chunk)
                    with self._changed:
                        self._sent += chunk
                        self._changed.notify_all()
                        cut = self._cut and _FIRST_EVENT.search(self._sent) is not None
                    if cut:
                        break
            except OSError:
                pass
            for sock in (connection, upstream):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


# An event as the server writes it, one chunk of the chunked body: the first of them ends the cut.
_FIRST_EVENT = re.compile(rb"event: \w+\ndata: [^\n]*\n\n")


def _headers(lines: List[str]) -> Dict[str, str]:
    return {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}


class TlsFront(SocketServer):
    """TLS on 127.0.0.1 with a throwaway self-signed certificate, relaying the plain bytes to `port`.
    `ca_file` is the certificate a client must trust."""

    def __init__(self, port: int) -> None:
        self._dir = tempfile.TemporaryDirectory(prefix="openmates-tls-")
        self.ca_file = str(Path(self._dir.name) / "cert.pem")
        key_file = str(Path(self._dir.name) / "key.pem")
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", key_file, "-out", self.ca_file,
            ],
            check=True,
            capture_output=True,
        )
        self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self._context.load_cert_chain(self.ca_file, key_file)
        self._upstream_port = port
        super().__init__(self._handle)
        self.url = f"https://127.0.0.1:{self.port}"

    def _handle(self, connection: socket.socket) -> None:
        try:
            secure = self._context.wrap_socket(connection, server_side=True)
        except (ssl.SSLError, OSError):
            return  # a client that does not trust the certificate hangs up
        with secure:
            upstream = socket.create_connection(("127.0.0.1", self._upstream_port))
            _relay(secure, upstream)

    def close(self) -> None:
        super().close()
        self._dir.cleanup()
