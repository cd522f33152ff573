"""The SDK against the real server on the Brave fixture, both clients: every status and error class,
retries counted in the server's log, the total deadline, refused and dropped connections,
cancellation, proxies, TLS with `ssl_context`, and the key absent from every error and repr."""

import asyncio
import base64
import json
import os
import platform
import re
import ssl
import tempfile
import unittest
from pathlib import Path
from typing import Any, Dict, List, Optional
from unittest import mock

import openmates
from openmates import (
    APIConnectionError,
    APIError,
    APITimeoutError,
    AsyncOpenMates,
    AuthenticationError,
    BadRequestError,
    InternalServerError,
    MethodNotAllowedError,
    NotFoundError,
    OpenMates,
    OpenMatesError,
    PayloadTooLargeError,
    ProviderError,
    RateLimitError,
    ServiceUnavailableError,
    UnsupportedMediaTypeError,
)

from .support import (
    PACKAGE_DIR,
    WAIT,
    Proxy,
    Server,
    TlsFront,
    answering_server,
    chunked_server,
    clean_env,
    close_servers,
    closed_port,
    dropping_server,
    holding_server,
    start_servers,
    trickling_server,
)

KEY = "py-sdk-test-key-5f1c0e9a7b3d"
"""The server's API key in these tests: it must appear in no error text and no repr."""

_servers: Dict[str, Server] = {}
_tmp = tempfile.TemporaryDirectory(prefix="openmates-py-")


# The tests decide about proxies and client settings themselves: none leak in from the environment.
_environment = mock.patch.dict(os.environ, clean_env(), clear=True)


def setUpModule() -> None:
    _environment.start()
    not_a_directory = Path(_tmp.name) / "file"
    not_a_directory.write_text("not a directory")
    configs: Dict[str, Dict[str, str]] = {
        "plain": {},
        "keyed": {"OPENMATES_API_KEYS": KEY},
        "limited": {"OPENMATES_RATE_LIMIT_PER_MIN": "1"},
        # The local index under a regular file cannot be opened: each search is a 503 not_configured.
        "broken": {"OPENMATES_PROVIDER": "local", "OPENMATES_INDEX": str(not_a_directory / "index.db")},
    }
    _servers.update(start_servers(configs))


def tearDownModule() -> None:
    close_servers(_servers)
    _tmp.cleanup()
    _environment.stop()


def untyped(value: object) -> Any:
    """`value` past the SDK's static types, as a caller without a type checker would send it."""
    return value


def no_retry_sleep(seconds: float) -> None:
    raise AssertionError(f"unexpected retry after {seconds} s")


class Recorder:
    """Stands in for the wait between attempts: records each delay instead of waiting."""

    def __init__(self) -> None:
        self.delays: List[float] = []

    def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)

    async def async_sleep(self, seconds: float) -> None:
        self.delays.append(seconds)


class SecretsMixin(unittest.TestCase):
    def assert_no_secret(self, *things: object) -> None:
        """Neither the API key nor the fixture's provider key is in any text a caller can see."""
        canary = _servers["plain"].canary
        for thing in things:
            texts = [str(thing), repr(thing)]
            if isinstance(thing, APIError):
                texts += [json.dumps(thing.body), json.dumps(dict(thing.headers)), str(thing.issues)]
            for text in texts:
                self.assertNotIn(KEY, text)
                self.assertNotIn(canary, text)


class SyncClientTest(SecretsMixin):
    def client(self, server: str = "plain") -> OpenMates:
        return OpenMates(base_url=_servers[server].url, api_key="", _sleep=no_retry_sleep)

    def test_search_returns_one_group_per_item_in_order(self) -> None:
        response = self.client().apps.web.search([{"id": "a", "query": "rust", "count": 2}, {"query": "css grid"}])
        self.assertEqual(response["provider"], "Brave Search")
        self.assertEqual([group["id"] for group in response["results"]], ["a", 1])
        self.assertEqual(
            [r["url"] for r in response["results"][0]["results"]],
            ["https://example.org/rust/1", "https://example.org/rust/2"],
        )

    def test_info_reports_the_contract_this_sdk_was_built_from(self) -> None:
        info = self.client().apps.web.info()
        self.assertEqual(info["fingerprint"], openmates.CONTRACT_FINGERPRINT)
        self.assertEqual(tuple(info["assertions"]), openmates.ASSERTION_IDS)
        self.assertEqual(info["provider"]["id"], "brave")

    def test_a_400_raises_bad_request_with_issues_and_is_not_retried(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client().apps.web.search(untyped([{"query": "rust", "max_results": 5}]))
        error = caught.exception
        self.assertEqual((error.status, error.code), (400, "invalid_request"))
        self.assertEqual([i["path"] for i in error.issues], ["requests[0].max_results"])
        self.assertIn("requests[0].max_results", str(error))
        # The server's summary names the issue already: the message says it once.
        self.assertEqual(str(error).count('unknown field "max_results"'), 1)
        self.assertIsNotNone(error.request_id)
        lines = _servers["plain"].http_lines_until(str(error.request_id))
        self.assertEqual(lines[-1]["status"], 400)
        self.assert_no_secret(error)

    def test_requests_that_are_not_a_list_are_the_servers_400_not_a_bare_exception(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            self.client().apps.web.search(untyped(None))
        self.assertEqual([i["path"] for i in caught.exception.issues], ["requests"])

    def test_a_401_raises_authentication_error_without_the_key(self) -> None:
        wrong = OpenMates(base_url=_servers["keyed"].url, api_key=KEY + "x", _sleep=no_retry_sleep)
        with self.assertRaises(AuthenticationError) as caught:
            wrong.apps.web.search([{"query": "rust"}])
        self.assertEqual((caught.exception.status, caught.exception.code), (401, "unauthorized"))
        self.assert_no_secret(caught.exception, wrong)
        right = OpenMates(base_url=_servers["keyed"].url, api_key=KEY)
        self.assertEqual(len(right.apps.web.search([{"query": "rust", "count": 1}])["results"]), 1)
        self.assert_no_secret(right)
        self.assertIn("api_key='***'", repr(right))

    def test_environment_variables_configure_the_client(self) -> None:
        with mock.patch.dict(os.environ, {"OPENMATES_API_URL": _servers["keyed"].url, "OPENMATES_API_KEY": KEY}):
            client = OpenMates()
        self.assertEqual(client.base_url, _servers["keyed"].url)
        self.assertEqual(client.apps.web.info()["app"], "web")
        self.assert_no_secret(client)

    def test_404_405_413_415_raise_their_classes(self) -> None:
        with self.assertRaises(NotFoundError) as not_found:
            OpenMates(base_url=_servers["plain"].url + "/nope", api_key="").apps.web.info()
        with self.assertRaises(MethodNotAllowedError) as not_allowed:
            self.client().request("DELETE", openmates.SEARCH_PATH)
        with self.assertRaises(PayloadTooLargeError) as too_large:
            self.client().apps.web.search([{"query": "rust"}], extra_body={"padding": "x" * 70_000})
        with self.assertRaises(UnsupportedMediaTypeError) as media:
            self.client().apps.web.search([{"query": "rust"}], extra_headers={"Content-Type": "text/plain"})
        self.assertEqual(
            [(e.exception.status, e.exception.code) for e in (not_found, not_allowed, too_large, media)],
            [(404, "not_found"), (405, "method_not_allowed"), (413, "payload_too_large"), (415, "unsupported_media_type")],
        )

    def test_a_502_raises_provider_error_with_the_whole_response(self) -> None:
        with self.assertRaises(ProviderError) as caught:
            self.client().apps.web.search([{"id": "x", "query": "error500 rust"}])
        error = caught.exception
        self.assertEqual((error.status, error.code), (502, "provider_error"))
        self.assertEqual(error.response["results"][0]["id"], "x")
        self.assertEqual(error.response["results"][0].get("error", {}).get("code"), "provider_error")
        self.assertEqual(error.response["results"][0]["results"], [])
        # The fixture's 500 carries its key in body and headers; nothing of it reaches the caller.
        self.assert_no_secret(error)

    def test_a_5xx_that_is_not_the_servers_raises_internal_server_error(self) -> None:
        for status in (500, 502):
            gateway = answering_server(status, b"<html>gateway trouble</html>", ("Content-Type: text/html",))
            try:
                with self.assertRaises(InternalServerError) as caught:
                    OpenMates(base_url=gateway.url, _sleep=no_retry_sleep).apps.web.info()
                self.assertEqual((caught.exception.status, caught.exception.code), (status, None))
                self.assertEqual(caught.exception.body, "<html>gateway trouble</html>")
            finally:
                gateway.close()

    def test_other_statuses_raise_api_error_and_a_2xx_that_is_not_json_is_a_clear_error(self) -> None:
        teapot = answering_server(418, b'{"error": "short and stout"}', ("Content-Type: application/json",))
        page = answering_server(200, b"<html>a web page</html>", ("Content-Type: text/html",))
        try:
            with self.assertRaises(APIError) as caught:
                OpenMates(base_url=teapot.url, _sleep=no_retry_sleep).apps.web.info()
            self.assertIs(type(caught.exception), APIError)
            self.assertEqual((caught.exception.status, caught.exception.code), (418, None))
            self.assertEqual(str(caught.exception), "418: short and stout")
            with self.assertRaises(OpenMatesError) as not_json:
                OpenMates(base_url=page.url, _sleep=no_retry_sleep).apps.web.info()
            self.assertIn("not JSON", str(not_json.exception))
        finally:
            teapot.close()
            page.close()

    def test_a_429_is_retried_max_retries_times_honouring_retry_after(self) -> None:
        proxy = Proxy()
        recorder = Recorder()
        try:
            with mock.patch.dict(os.environ, {**clean_env(), "HTTP_PROXY": proxy.url}, clear=True):
                client = OpenMates(base_url=_servers["limited"].url, max_retries=2, _sleep=recorder)
            client.apps.web.search([{"query": "rust", "count": 1}])  # the minute's one search
            with self.assertRaises(RateLimitError) as caught:
                client.apps.web.search([{"query": "rust", "count": 1}])
        finally:
            proxy.close()
        error = caught.exception
        self.assertEqual((error.status, error.code), (429, "rate_limited"))
        lines = _servers["limited"].http_lines_until(str(error.request_id))
        self.assertEqual([line["status"] for line in lines[-4:]], [200, 429, 429, 429])
        # The waits are the Retry-After each refused attempt carried (as the proxy saw it).
        sent = [float(headers["retry-after"]) for status, headers in proxy.answers if status == 429]
        self.assertEqual(len(sent), 3)
        self.assertEqual(recorder.delays, sent[:2])
        self.assert_no_secret(error)

    def test_a_503_is_retried_max_retries_times_with_backoff(self) -> None:
        recorder = Recorder()
        client = OpenMates(base_url=_servers["broken"].url, max_retries=3, _sleep=recorder)
        with self.assertRaises(ServiceUnavailableError) as caught:
            client.apps.web.search([{"query": "rust"}])
        self.assertEqual(caught.exception.code, "not_configured")
        lines = _servers["broken"].http_lines_until(str(caught.exception.request_id))
        self.assertEqual([line["status"] for line in lines[-4:]], [503, 503, 503, 503])
        # No Retry-After: 0.5 s, 1 s, 2 s, each jittered by at most 25 %.
        self.assertEqual(len(recorder.delays), 3)
        for delay, base in zip(recorder.delays, (0.5, 1.0, 2.0)):
            self.assertTrue(base * 0.75 <= delay <= base * 1.25, (delay, base))

    def test_a_down_server_raises_api_connection_error_after_exactly_max_retries(self) -> None:
        recorder = Recorder()
        port = closed_port()
        client = OpenMates(base_url=f"http://127.0.0.1:{port}", api_key=KEY, max_retries=3, _sleep=recorder)
        with self.assertRaises(APIConnectionError) as caught:
            client.apps.web.search([{"query": "rust"}])
        self.assertNotIsInstance(caught.exception, APITimeoutError)
        self.assertEqual(len(recorder.delays), 3)
        self.assertIn(f"Could not reach the OpenMates server at http://127.0.0.1:{port}/v1/", str(caught.exception))
        self.assert_no_secret(caught.exception)

    def test_a_dropped_connection_is_retried_then_raised(self) -> None:
        server = dropping_server()
        try:
            client = OpenMates(base_url=server.url, max_retries=2, _sleep=Recorder())
            with self.assertRaises(APIConnectionError):
                client.apps.web.info()
            self.assertEqual(server.connections, 3)
        finally:
            server.close()

    def test_the_timeout_is_a_total_deadline_not_a_per_read_one(self) -> None:
        server = trickling_server()
        try:
            client = OpenMates(base_url=server.url, timeout=0.5, api_key=KEY, _sleep=no_retry_sleep)
            with self.assertRaises(APITimeoutError) as caught:
                client.apps.web.info()
            self.assertIn("0.5 s", str(caught.exception))
            self.assertTrue(server.peer_closed.wait(WAIT), "the connection was left open")
            self.assertEqual(server.connections, 1)  # a timeout is not retried
            self.assert_no_secret(caught.exception)
        finally:
            server.close()

    def test_http_proxy_is_used_and_no_proxy_is_honoured(self) -> None:
        proxy = Proxy()
        url = _servers["plain"].url
        try:
            with_credentials = proxy.url.replace("http://", "http://user:p%40ss@")
            with mock.patch.dict(os.environ, {**clean_env(), "HTTP_PROXY": with_credentials}, clear=True):
                proxied = OpenMates(base_url=url, api_key=KEY)
            with mock.patch.dict(os.environ, {**clean_env(), "HTTP_PROXY": proxy.url, "NO_PROXY": "127.0.0.1"}, clear=True):
                direct = OpenMates(base_url=url)
            self.assertEqual(proxied.apps.web.search([{"query": "rust", "count": 1}])["provider"], "Brave Search")
            direct.apps.web.info()
        finally:
            proxy.close()
        self.assertEqual(len(proxy.requests), 1)
        line, headers = proxy.requests[0]
        self.assertEqual(line, f"POST {url}{openmates.SEARCH_PATH} HTTP/1.1")
        self.assertEqual(headers["authorization"], f"Bearer {KEY}")
        self.assertEqual(headers["proxy-authorization"], "Basic " + base64.b64encode(b"user:p@ss").decode())
        self.assertIn(f"openmates-python/{openmates.__version__}", headers["user-agent"])
        self.assertIn(platform.python_version(), headers["user-agent"])

    def test_https_through_a_connect_tunnel_with_ssl_context(self) -> None:
        front, proxy = TlsFront(port_of(_servers["plain"].url)), Proxy()
        try:
            trusted = ssl.create_default_context(cafile=front.ca_file)
            with mock.patch.dict(os.environ, {**clean_env(), "HTTPS_PROXY": proxy.url}, clear=True):
                client = OpenMates(base_url=front.url, ssl_context=trusted)
                untrusting = OpenMates(base_url=front.url, max_retries=0)
            self.assertEqual(client.apps.web.info()["app"], "web")
            with self.assertRaises(APIConnectionError) as caught:
                untrusting.apps.web.info()
            self.assertIn("CERTIFICATE_VERIFY_FAILED", str(caught.exception))
        finally:
            front.close()
            proxy.close()
        self.assertTrue(proxy.requests[0][0].startswith(f"CONNECT 127.0.0.1:{front.port} HTTP/1."), proxy.requests)

    def test_bad_client_settings_are_clear_errors(self) -> None:
        for options in ({"timeout": 0}, {"timeout": "5"}, {"max_retries": -1}, {"base_url": "ftp://x"}):
            with self.assertRaises(OpenMatesError):
                OpenMates(**untyped(options))
        client = self.client()
        with self.assertRaises(OpenMatesError):
            client.apps.web.search([{"query": "a"}], extra_headers={"X-Bad": "a\r\nInjected: 1"})
        with self.assertRaises(OpenMatesError):
            client.apps.web.search([{"query": untyped(object())}])

    def test_with_closes_the_client(self) -> None:
        with self.client() as client:
            client.apps.web.info()
        with self.assertRaises(OpenMatesError):
            client.apps.web.info()

    def test_version_matches_pyproject(self) -> None:
        text = (PACKAGE_DIR / "pyproject.toml").read_text()
        match = re.search(r'^version = "([^"]+)"', text, re.M)
        self.assertEqual(match.group(1) if match else None, openmates.__version__)


def port_of(url: str) -> int:
    """The port of a server's `http://127.0.0.1:PORT` origin."""
    return int(url.rsplit(":", 1)[1])


class AsyncClientTest(SecretsMixin, unittest.IsolatedAsyncioTestCase):
    def client(self, server: str = "plain", recorder: Optional[Recorder] = None, max_retries: int = 2) -> AsyncOpenMates:
        sleep = (recorder or Recorder()).async_sleep
        return AsyncOpenMates(base_url=_servers[server].url, api_key="", max_retries=max_retries, _sleep=sleep)

    async def test_search_and_info(self) -> None:
        async with self.client() as client:
            response, info = await asyncio.gather(
                client.apps.web.search([{"query": "rust", "count": 3}]), client.apps.web.info()
            )
        self.assertEqual(len(response["results"][0]["results"]), 3)
        self.assertEqual(info["fingerprint"], openmates.CONTRACT_FINGERPRINT)

    async def test_a_400_raises_bad_request_with_issues(self) -> None:
        with self.assertRaises(BadRequestError) as caught:
            await self.client().apps.web.search([{"query": " \u200b "}])
        self.assertEqual([i["path"] for i in caught.exception.issues], ["requests[0].query"])

    async def test_a_401_and_a_502(self) -> None:
        keyed = AsyncOpenMates(base_url=_servers["keyed"].url, api_key=KEY + "x")
        with self.assertRaises(AuthenticationError) as unauthorized:
            await keyed.apps.web.info()
        with self.assertRaises(ProviderError) as provider:
            await self.client().apps.web.search([{"query": "error500 rust"}, {"query": "unavailable css"}])
        self.assert_no_secret(unauthorized.exception, provider.exception, keyed)
        self.assertEqual(provider.exception.status, 502)
        self.assertIn("api_key='***'", repr(keyed))

    async def test_a_503_is_retried_max_retries_times(self) -> None:
        recorder = Recorder()
        with self.assertRaises(ServiceUnavailableError) as caught:
            await self.client("broken", recorder, max_retries=2).apps.web.search([{"query": "rust"}])
        lines = _servers["broken"].http_lines_until(str(caught.exception.request_id))
        self.assertEqual([line["status"] for line in lines[-3:]], [503, 503, 503])
        self.assertEqual(len(recorder.delays), 2)

    async def test_a_down_server_raises_api_connection_error_after_exactly_max_retries(self) -> None:
        recorder = Recorder()
        client = AsyncOpenMates(
            base_url=f"http://127.0.0.1:{closed_port()}", api_key=KEY, max_retries=2, _sleep=recorder.async_sleep
        )
        with self.assertRaises(APIConnectionError) as caught:
            await client.apps.web.search([{"query": "rust"}])
        self.assertEqual(len(recorder.delays), 2)
        self.assert_no_secret(caught.exception)

    async def test_the_timeout_is_a_total_deadline(self) -> None:
        server = trickling_server()
        try:
            client = AsyncOpenMates(base_url=server.url, timeout=0.5, _sleep=no_retry_async_sleep)
            with self.assertRaises(APITimeoutError):
                await client.apps.web.info()
            self.assertTrue(await asyncio.to_thread(server.peer_closed.wait, WAIT), "the connection was left open")
            self.assertEqual(server.connections, 1)
        finally:
            server.close()

    async def test_a_chunked_answer_is_read_whole_by_both_clients(self) -> None:
        document = {"app": "web", "text": "ünïcode " * 20}
        server = chunked_server(json.dumps(document).encode("utf-8"))
        try:
            self.assertEqual(dict(await AsyncOpenMates(base_url=server.url).apps.web.info()), document)
            self.assertEqual(dict(await asyncio.to_thread(OpenMates(base_url=server.url).apps.web.info)), document)
        finally:
            server.close()

    async def test_cancellation_closes_the_connection(self) -> None:
        server = holding_server()
        try:
            task = asyncio.ensure_future(AsyncOpenMates(base_url=server.url).apps.web.search([{"query": "rust"}]))
            self.assertTrue(await asyncio.to_thread(server.received.wait, WAIT))
            task.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await task
            self.assertTrue(await asyncio.to_thread(server.peer_closed.wait, WAIT), "the connection was left open")
        finally:
            server.close()

    async def test_proxies_and_ssl_context(self) -> None:
        front, proxy = TlsFront(port_of(_servers["plain"].url)), Proxy()
        try:
            trusted = ssl.create_default_context(cafile=front.ca_file)
            with mock.patch.dict(os.environ, {**clean_env(), "HTTP_PROXY": proxy.url, "HTTPS_PROXY": proxy.url}, clear=True):
                plain = AsyncOpenMates(base_url=_servers["plain"].url)
                tunnelled = AsyncOpenMates(base_url=front.url, ssl_context=trusted)
                untrusting = AsyncOpenMates(base_url=front.url, max_retries=0)
            self.assertEqual((await plain.apps.web.search([{"query": "rust", "count": 1}]))["provider"], "Brave Search")
            self.assertEqual((await tunnelled.apps.web.info())["app"], "web")
            with self.assertRaises(APIConnectionError):
                await untrusting.apps.web.info()
        finally:
            front.close()
            proxy.close()
        lines = [line for line, _ in proxy.requests]
        self.assertEqual(lines[0], f"POST {_servers['plain'].url}{openmates.SEARCH_PATH} HTTP/1.1")
        self.assertEqual(lines[1], f"CONNECT 127.0.0.1:{front.port} HTTP/1.1")
        self.assertIn(f"openmates-python/{openmates.__version__}", proxy.requests[0][1]["user-agent"])


async def no_retry_async_sleep(seconds: float) -> None:
    raise AssertionError(f"unexpected retry after {seconds} s")

if __name__ == "__main__":
    unittest.main()
