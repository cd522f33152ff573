"""`search_stream` of both clients against the real server on the Brave fixture: events in
completion order behind the fixture's hold gate, `done` equal to `search`, the errors `search`
raises, keep-alive comments, retries only before the stream began, and closing aborting the
provider call still running. Causal throughout: the fixture holds an answer until the test
releases it; nothing sleeps."""

import asyncio
import json
import os
import ssl
import threading
import unittest
from typing import Any, Dict, List, Mapping
from unittest import mock

from openmates import (
    APIConnectionError,
    AsyncOpenMates,
    AsyncSearchStream,
    AuthenticationError,
    BadRequestError,
    OpenMates,
    OpenMatesError,
    ProviderError,
    RateLimitError,
    SearchStream,
    ServiceUnavailableError,
)
from openmates._http_async import within
from openmates.types import RequestId, SearchStreamEvent, WebSearchRequestItem

from .support import (
    WAIT,
    Proxy,
    Server,
    Tap,
    TlsFront,
    answering_server,
    clean_env,
    close_servers,
    dropping_server,
    start_servers,
)

KEY = "py-stream-test-key-8d2e4a6c1f0b"

_servers: Dict[str, Server] = {}
_environment = mock.patch.dict(os.environ, clean_env(), clear=True)


def setUpModule() -> None:
    _environment.start()
    configs: Dict[str, Dict[str, str]] = {
        # Keep-alive comments every 20 ms: a held query's stream carries many of them. A provider
        # timeout longer than any causal wait: only the client leaving can abort a held call in time.
        "plain": {"OPENMATES_STREAM_KEEPALIVE_MS": "20", "OPENMATES_PROVIDER_TIMEOUT_MS": "120000"},
        "keyed": {"OPENMATES_API_KEYS": KEY},
        "limited": {"OPENMATES_RATE_LIMIT_PER_MIN": "1"},
        # The local index under a regular file cannot be opened: the stream ends with an error event.
        "broken": {"OPENMATES_PROVIDER": "local", "OPENMATES_INDEX": os.path.abspath(__file__) + "/index.db"},
    }
    _servers.update(start_servers(configs))


def tearDownModule() -> None:
    close_servers(_servers)
    _environment.stop()


def no_retry_sleep(seconds: float) -> None:
    raise AssertionError(f"unexpected retry after {seconds} s")


async def no_retry_async_sleep(seconds: float) -> None:
    raise AssertionError(f"unexpected retry after {seconds} s")


def without_request_id(document: Mapping[str, Any]) -> Dict[str, Any]:
    return {key: value for key, value in document.items() if key != "request_id"}


def group_id(event: SearchStreamEvent) -> RequestId:
    """The id of a `group` event's group; fails on any other event."""
    if event["event"] != "group":
        raise AssertionError(f"expected a group event, got {event['event']}")
    return event["data"]["id"]


def names(events: List[SearchStreamEvent]) -> List[str]:
    return [event["event"] for event in events]


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


HELD: List[WebSearchRequestItem] = [{"id": "slow", "query": "hold slow words"}, {"id": "fast", "query": "fast words"}]
"""A batch whose first query the fixture holds until released, and whose second answers at once."""


class Watchdog:
    """Releases the fixture's held calls after `WAIT` seconds, so a server that buffered its stream
    fails the test (the first event came only after the release) instead of hanging it."""

    def __init__(self, server: Server) -> None:
        self.fired = threading.Event()
        self._timer = threading.Timer(WAIT, self._fire, args=(server,))
        self._timer.daemon = True
        self._timer.start()

    def _fire(self, server: Server) -> None:
        self.fired.set()
        server.release()

    def cancel(self) -> None:
        self._timer.cancel()


class StreamTestCase(unittest.TestCase):
    def setUp(self) -> None:
        _servers["plain"].reset_fixture()

    def tearDown(self) -> None:
        # Nothing a failed test left held may hang the fixture for the next one.
        _servers["plain"].release()

    def assert_first_group_before_release(self, event: SearchStreamEvent, watchdog: Watchdog) -> None:
        # A server that buffered the stream could have sent nothing yet: the slow answer is still held.
        self.assertFalse(watchdog.fired.is_set(), "the first event came only after the held query was released")
        self.assertEqual(group_id(event), "fast")


class SyncStreamTest(StreamTestCase):
    def client(self, server: str = "plain", **options: Any) -> OpenMates:
        settings: Dict[str, Any] = {"api_key": "", "_sleep": no_retry_sleep, **options}
        return OpenMates(base_url=_servers[server].url, **settings)

    def test_groups_arrive_in_completion_order_while_the_slow_query_is_held(self) -> None:
        server = _servers["plain"]
        watchdog = Watchdog(server)
        try:
            with self.client().apps.web.search_stream(HELD) as stream:
                self.assertIsInstance(stream, SearchStream)
                first = next(stream)
                self.assert_first_group_before_release(first, watchdog)
                server.wait_for_held(1)
                server.release()
                rest = list(stream)
                response = stream.final_response()
        finally:
            watchdog.cancel()
        self.assertEqual(names(rest), ["group", "done"])
        self.assertEqual(group_id(rest[0]), "slow")
        self.assertEqual(rest[1]["data"], response)
        # `done` holds the groups in request order, whatever order they finished in.
        self.assertEqual([group["id"] for group in response["results"]], ["slow", "fast"])

    def test_done_is_what_search_returns_for_the_same_request(self) -> None:
        batch: List[WebSearchRequestItem] = [{"id": "a", "query": "rust", "count": 2}, {"query": "css grid"}]
        stream = self.client().apps.web.search_stream(batch)
        events = list(stream)
        self.assertEqual(sorted(names(events)), ["done", "group", "group"])
        self.assertEqual(events[-1]["event"], "done")
        streamed = stream.final_response()
        self.assertEqual(without_request_id(streamed), without_request_id(self.client().apps.web.search(batch)))

    def test_a_batch_whose_every_group_failed_raises_provider_error_as_search_does(self) -> None:
        batch: List[WebSearchRequestItem] = [{"query": "unavailable one"}]
        stream = self.client().apps.web.search_stream(batch)
        self.assertEqual(names(list(stream)), ["group", "done"])
        with self.assertRaises(ProviderError) as streamed:
            stream.final_response()
        with self.assertRaises(ProviderError) as plain:
            self.client().apps.web.search(batch)
        self.assertEqual((streamed.exception.status, streamed.exception.code), (502, plain.exception.code))
        self.assertEqual(without_request_id(streamed.exception.response), without_request_id(plain.exception.response))

    def test_a_refused_request_raises_the_typed_error_search_raises(self) -> None:
        invalid: Any = [{"query": "rust", "max_results": 5}]
        stream = self.client().apps.web.search_stream(invalid)
        with self.assertRaises(BadRequestError) as caught:
            next(stream)
        self.assertEqual([issue["path"] for issue in caught.exception.issues], ["requests[0].max_results"])
        # final_response raises the same error; the iteration is over.
        with self.assertRaises(BadRequestError) as again:
            stream.final_response()
        self.assertIs(again.exception, caught.exception)
        self.assertEqual(list(stream), [])
        lines = _servers["plain"].http_lines_until(str(caught.exception.request_id))
        self.assertEqual(lines[-1]["status"], 400)

        with self.assertRaises(AuthenticationError):
            self.client("keyed").apps.web.search_stream([{"query": "rust"}]).final_response()
        keyed = self.client("keyed", api_key=KEY).apps.web.search_stream([{"query": "rust"}])
        self.assertEqual(keyed.final_response()["provider"], "Brave Search")

    def test_an_error_event_raises_the_class_of_its_code_and_is_not_retried(self) -> None:
        # no_retry_sleep fails the test on any retry: the stream had begun.
        stream = self.client("broken").apps.web.search_stream([{"query": "rust"}])
        events = list(stream)
        self.assertEqual(names(events), ["error"])
        with self.assertRaises(ServiceUnavailableError) as caught:
            stream.final_response()
        self.assertEqual((caught.exception.status, caught.exception.code), (503, "not_configured"))
        self.assertEqual(caught.exception.body, events[0]["data"])

    def test_keep_alive_comments_are_read_and_never_surface_as_events(self) -> None:
        server = _servers["plain"]
        tap = Tap(port_of(server.url))

        def release_after_keep_alives() -> None:
            # Several comments have reached the client while the only query is held.
            tap.wait_for(b": keep-alive\n\n", 3)
            server.wait_for_held(1)
            server.release()

        releaser = threading.Thread(target=release_after_keep_alives, daemon=True)
        releaser.start()
        try:
            stream = OpenMates(base_url=tap.url, api_key="", _sleep=no_retry_sleep).apps.web.search_stream(
                [{"query": "hold kept alive"}]
            )
            events = list(stream)
        finally:
            releaser.join(WAIT)
            tap.close()
        self.assertEqual(names(events), ["group", "done"])
        self.assertGreaterEqual(tap.count(b": keep-alive\n\n"), 3)
        self.assertEqual(stream.final_response()["results"][0]["id"], 1)

    def test_a_refusal_before_the_stream_is_retried_with_the_clients_policy(self) -> None:
        delays: List[float] = []
        client = OpenMates(base_url=_servers["limited"].url, api_key="", max_retries=2, _sleep=delays.append)
        try:
            client.apps.web.search([{"query": "rust", "count": 1}])  # the minute's one search
        except RateLimitError:
            pass  # another test spent it already
        with self.assertRaises(RateLimitError) as caught:
            client.apps.web.search_stream([{"query": "rust", "count": 1}]).final_response()
        lines = _servers["limited"].http_lines_until(str(caught.exception.request_id))
        self.assertEqual([line["status"] for line in lines[-3:]], [429, 429, 429])
        self.assertEqual(len(delays), 2)

        dropping = dropping_server()
        try:
            with self.assertRaises(APIConnectionError):
                next(OpenMates(base_url=dropping.url, max_retries=2, _sleep=delays.append).apps.web.search_stream(HELD))
            self.assertEqual(dropping.connections, 3)
        finally:
            dropping.close()

    def test_a_stream_that_breaks_off_after_its_first_event_is_not_retried(self) -> None:
        server = _servers["plain"]
        tap = Tap(port_of(server.url), cut_after_first_event=True)
        try:
            client = OpenMates(base_url=tap.url, api_key="", max_retries=2, _sleep=no_retry_sleep)
            stream = client.apps.web.search_stream(HELD)
            self.assertEqual(next(stream)["event"], "group")
            with self.assertRaises(APIConnectionError) as caught:
                next(stream)
            with self.assertRaises(APIConnectionError) as again:
                stream.final_response()
            self.assertIs(again.exception, caught.exception)
            self.assertEqual(tap.connections, 1)
            # The cut reached the server, which gave up the provider call still held.
            self.assertEqual(server.wait_for_aborted(1), 1)
        finally:
            tap.close()

    def test_leaving_a_with_block_early_aborts_the_provider_call(self) -> None:
        server = _servers["plain"]
        with self.client().apps.web.search_stream(HELD) as stream:
            self.assertEqual(group_id(next(stream)), "fast")
            server.wait_for_held(1)
        self.assertEqual(server.wait_for_aborted(1), 1)
        with self.assertRaisesRegex(OpenMatesError, "closed before its last event"):
            stream.final_response()

    def test_breaking_out_of_a_for_loop_aborts_the_provider_call(self) -> None:
        server = _servers["plain"]
        for event in self.client().apps.web.search_stream(HELD):
            self.assertEqual(group_id(event), "fast")
            server.wait_for_held(1)
            break
        # The loop held the only reference: leaving it closed the connection.
        self.assertEqual(server.wait_for_aborted(1), 1)

    def test_https_through_a_connect_tunnel_streams_and_closing_still_aborts(self) -> None:
        server = _servers["plain"]
        front, proxy = TlsFront(port_of(server.url)), Proxy()
        try:
            trusted = ssl.create_default_context(cafile=front.ca_file)
            with mock.patch.dict(os.environ, {**clean_env(), "HTTPS_PROXY": proxy.url}, clear=True):
                client = OpenMates(base_url=front.url, ssl_context=trusted, _sleep=no_retry_sleep)
            batch: List[WebSearchRequestItem] = [{"query": "rust"}, {"query": "css grid"}]
            self.assertEqual(len(client.apps.web.search_stream(batch).final_response()["results"]), 2)
            with client.apps.web.search_stream(HELD) as stream:
                self.assertEqual(group_id(next(stream)), "fast")
                server.wait_for_held(1)
            self.assertEqual(server.wait_for_aborted(1), 1)
        finally:
            front.close()
            proxy.close()
        self.assertTrue(all(line.startswith("CONNECT ") for line, _ in proxy.requests), proxy.requests)

    def test_a_server_that_answers_json_gives_one_done_event(self) -> None:
        document: Dict[str, Any] = {"results": [{"id": 1, "results": []}], "provider": "Brave Search"}
        server = answering_server(200, json.dumps(document).encode("utf-8"), ("Content-Type: application/json",))
        try:
            stream = OpenMates(base_url=server.url).apps.web.search_stream([{"query": "rust"}])
            self.assertEqual(list(stream), [{"event": "done", "data": document}])
            self.assertEqual(dict(stream.final_response()), document)
        finally:
            server.close()


class AsyncStreamTest(StreamTestCase, unittest.IsolatedAsyncioTestCase):
    def client(self, server: str = "plain", **options: Any) -> AsyncOpenMates:
        settings: Dict[str, Any] = {"api_key": "", "_sleep": no_retry_async_sleep, **options}
        return AsyncOpenMates(base_url=_servers[server].url, **settings)

    async def test_groups_arrive_in_completion_order_while_the_slow_query_is_held(self) -> None:
        server = _servers["plain"]
        watchdog = Watchdog(server)
        try:
            async with self.client().apps.web.search_stream(HELD) as stream:
                self.assertIsInstance(stream, AsyncSearchStream)
                first = await stream.__anext__()
                self.assert_first_group_before_release(first, watchdog)
                await asyncio.to_thread(server.wait_for_held, 1)
                await asyncio.to_thread(server.release)
                rest = [event async for event in stream]
                response = await stream.final_response()
        finally:
            watchdog.cancel()
        self.assertEqual(names(rest), ["group", "done"])
        self.assertEqual(group_id(rest[0]), "slow")
        self.assertEqual(rest[1]["data"], response)

    async def test_done_is_what_search_returns_and_errors_are_searchs(self) -> None:
        batch: List[WebSearchRequestItem] = [{"id": "a", "query": "rust", "count": 2}, {"query": "css grid"}]
        streamed = await self.client().apps.web.search_stream(batch).final_response()
        plain = await self.client().apps.web.search(batch)
        self.assertEqual(without_request_id(streamed), without_request_id(plain))

        with self.assertRaises(ProviderError) as failed:
            await self.client().apps.web.search_stream([{"query": "unavailable one"}]).final_response()
        self.assertEqual(failed.exception.status, 502)
        invalid: Any = [{"query": "rust", "max_results": 5}]
        with self.assertRaises(BadRequestError) as refused:
            async for _ in self.client().apps.web.search_stream(invalid):
                pass
        self.assertEqual([issue["path"] for issue in refused.exception.issues], ["requests[0].max_results"])
        stream = self.client("broken").apps.web.search_stream([{"query": "rust"}])
        self.assertEqual(names([event async for event in stream]), ["error"])
        with self.assertRaises(ServiceUnavailableError):
            await stream.final_response()

    async def test_keep_alive_comments_are_read_and_never_surface_as_events(self) -> None:
        server = _servers["plain"]
        tap = Tap(port_of(server.url))

        def release_after_keep_alives() -> None:
            tap.wait_for(b": keep-alive\n\n", 3)
            server.wait_for_held(1)
            server.release()

        try:
            client = AsyncOpenMates(base_url=tap.url, api_key="", _sleep=no_retry_async_sleep)
            stream = client.apps.web.search_stream([{"query": "hold kept alive"}])
            releasing = asyncio.ensure_future(asyncio.to_thread(release_after_keep_alives))
            events = [event async for event in stream]
            await releasing
        finally:
            tap.close()
        self.assertEqual(names(events), ["group", "done"])
        self.assertGreaterEqual(tap.count(b": keep-alive\n\n"), 3)

    async def test_retried_before_the_stream_began_and_never_after(self) -> None:
        delays: List[float] = []

        async def record(seconds: float) -> None:
            delays.append(seconds)

        dropping = dropping_server()
        try:
            with self.assertRaises(APIConnectionError):
                await AsyncOpenMates(base_url=dropping.url, max_retries=2, _sleep=record).apps.web.search_stream(
                    HELD
                ).final_response()
            self.assertEqual((dropping.connections, len(delays)), (3, 2))
        finally:
            dropping.close()

        server = _servers["plain"]
        tap = Tap(port_of(server.url), cut_after_first_event=True)
        try:
            client = AsyncOpenMates(base_url=tap.url, api_key="", max_retries=2, _sleep=no_retry_async_sleep)
            stream = client.apps.web.search_stream(HELD)
            self.assertEqual((await stream.__anext__())["event"], "group")
            with self.assertRaises(APIConnectionError):
                await stream.final_response()
            self.assertEqual(tap.connections, 1)
            self.assertEqual(await asyncio.to_thread(server.wait_for_aborted, 1), 1)
        finally:
            tap.close()

    async def test_https_with_ssl_context_streams_and_closing_still_aborts(self) -> None:
        server = _servers["plain"]
        front = TlsFront(port_of(server.url))
        try:
            client = AsyncOpenMates(
                base_url=front.url,
                ssl_context=ssl.create_default_context(cafile=front.ca_file),
                _sleep=no_retry_async_sleep,
            )
            batch: List[WebSearchRequestItem] = [{"query": "rust"}, {"query": "css grid"}]
            self.assertEqual(len((await client.apps.web.search_stream(batch).final_response())["results"]), 2)
            async with client.apps.web.search_stream(HELD) as stream:
                self.assertEqual(group_id(await stream.__anext__()), "fast")
                await asyncio.to_thread(server.wait_for_held, 1)
            self.assertEqual(await asyncio.to_thread(server.wait_for_aborted, 1), 1)
        finally:
            front.close()

    async def test_leaving_an_async_with_block_early_aborts_the_provider_call(self) -> None:
        server = _servers["plain"]
        async with self.client().apps.web.search_stream(HELD) as stream:
            async for event in stream:
                self.assertEqual(group_id(event), "fast")
                break
        self.assertEqual(await asyncio.to_thread(server.wait_for_aborted, 1), 1)
        with self.assertRaisesRegex(OpenMatesError, "closed before its last event"):
            await stream.final_response()

    async def test_close_and_cancellation_abort_the_provider_call(self) -> None:
        server = _servers["plain"]
        stream = self.client().apps.web.search_stream(HELD)
        await stream.__anext__()
        await stream.close()
        self.assertEqual(await asyncio.to_thread(server.wait_for_aborted, 1), 1)

        # A task reading the stream, cancelled while it waits for the held query.
        reading = self.client().apps.web.search_stream([{"query": "hold cancelled"}])
        task = asyncio.ensure_future(reading.final_response())
        await asyncio.to_thread(server.wait_for_held, 1)
        task.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await task
        self.assertEqual(await asyncio.to_thread(server.wait_for_aborted, 2), 2)

        # Breaking out of an `async for` over a stream nothing else holds closes it too.
        async for event in self.client().apps.web.search_stream(HELD):
            self.assertEqual(group_id(event), "fast")
            break
        self.assertEqual(await asyncio.to_thread(server.wait_for_aborted, 3), 3)


class WithinTest(unittest.IsolatedAsyncioTestCase):
    """The async transport's deadline: the caller's cancellation always wins (Python 3.11's
    `asyncio.wait_for` returned a result that arrived together with it, and the cancelled task went
    on reading its stream until the server's provider timeout)."""

    async def test_a_cancellation_that_arrives_with_the_result_is_raised_and_the_result_discarded(self) -> None:
        answer: "asyncio.Future[str]" = asyncio.get_running_loop().create_future()
        discarded: List[str] = []
        waiting = asyncio.ensure_future(within(answer, WAIT, discarded.append))
        await asyncio.sleep(0)  # one turn of the loop: `waiting` now waits for `answer`
        answer.set_result("the answer")
        waiting.cancel()
        with self.assertRaises(asyncio.CancelledError):
            await waiting
        self.assertEqual(discarded, ["the answer"])

    async def test_a_result_in_time_is_returned_and_a_late_one_times_out(self) -> None:
        answer: "asyncio.Future[str]" = asyncio.get_running_loop().create_future()
        answer.set_result("the answer")
        self.assertEqual(await within(answer, WAIT), "the answer")
        never: "asyncio.Future[str]" = asyncio.get_running_loop().create_future()
        with self.assertRaises(asyncio.TimeoutError):
            await within(never, 0.01)
        self.assertTrue(never.cancelled())


if __name__ == "__main__":
    unittest.main()
