"""The rate-limit state both clients expose, against the real server with a small per-key limit:
``with_raw_response`` on results, ``rate_limit`` on streams (sync and async) and on errors, skill
info's peek that counts nothing, and nothing at all when the server's limit is off."""

import asyncio
import json
import os
import unittest
from typing import Dict, Optional
from unittest import mock

from openmates import APIResponse, AsyncOpenMates, OpenMates, RateLimit, RateLimitError

from .support import Server, answering_server, clean_env, close_servers, start_servers

KEY = "py-sdk-rate-limit-key-0c7e2b"
OTHER_KEY = "py-sdk-rate-limit-key-async-9d41"
STREAM_KEY = "py-sdk-rate-limit-key-stream-5a7f"
ASYNC_STREAM_KEY = "py-sdk-rate-limit-key-async-stream-b3e8"

_servers: Dict[str, Server] = {}
_environment = mock.patch.dict(os.environ, clean_env(), clear=True)


def setUpModule() -> None:
    _environment.start()
    limited = {
        "OPENMATES_API_KEYS": f"{KEY},{OTHER_KEY},{STREAM_KEY},{ASYNC_STREAM_KEY}",
        "OPENMATES_RATE_LIMIT_PER_MIN": "2",
        "OPENMATES_RATE_LIMIT_WINDOW_S": "120",
    }
    _servers.update(start_servers({"limited": limited, "unlimited": {}}))


def tearDownModule() -> None:
    close_servers(_servers)
    _environment.stop()


def no_sleep(seconds: float) -> None:
    raise AssertionError(f"unexpected retry after {seconds} s")


def assert_one_left(test: unittest.TestCase, state: Optional[RateLimit]) -> RateLimit:
    """Checks the typed state after the first of the key's 2 searches in its 120 s window."""
    assert state is not None
    test.assertIsInstance(state, RateLimit)
    test.assertEqual((state.limit, state.remaining, state.policy), (2, 1, "per-key"))
    test.assertGreater(state.reset_seconds, 0)
    test.assertLessEqual(state.reset_seconds, 120)
    return state


class SyncRateLimit(unittest.TestCase):
    def test_state_on_results_peek_and_error(self) -> None:
        client = OpenMates(api_key=KEY, base_url=_servers["limited"].url, max_retries=0, _sleep=no_sleep)
        before = client.apps.web.with_raw_response.info()
        self.assertIsInstance(before, APIResponse)
        self.assertIsNone(before.rate_limit)  # skill info is not counted: no headers
        self.assertEqual(
            before.parse().get("rate_limit"), {"limit": 2, "remaining": 2, "reset_seconds": 0, "policy": "per-key"}
        )

        first = client.apps.web.with_raw_response.search([{"query": "rust"}])
        self.assertEqual(first.status_code, 200)
        assert_one_left(self, first.rate_limit)
        self.assertEqual(len(first.parse()["results"]), 1)
        self.assertIsNotNone(first.request_id)

        # The peek consumed nothing: one search left.
        peeked = client.apps.web.info().get("rate_limit")
        assert peeked is not None
        self.assertEqual(peeked["remaining"], 1)
        client.apps.web.search([{"query": "rust"}])
        with self.assertRaises(RateLimitError) as caught:
            client.apps.web.with_raw_response.search([{"query": "rust"}])
        refused = caught.exception.rate_limit
        assert refused is not None
        self.assertEqual((refused.limit, refused.remaining, refused.policy), (2, 0, "per-key"))
        self.assertEqual(str(refused.reset_seconds), caught.exception.headers.get("retry-after"))

    def test_none_when_the_limit_is_off(self) -> None:
        client = OpenMates(base_url=_servers["unlimited"].url)
        response = client.apps.web.with_raw_response.search([{"query": "rust"}])
        self.assertIsNone(response.rate_limit)
        self.assertNotIn("rate_limit", client.apps.web.info())


class SyncStreamRateLimit(unittest.TestCase):
    def test_state_from_the_first_event_and_on_a_refusal_before_the_stream(self) -> None:
        client = OpenMates(api_key=STREAM_KEY, base_url=_servers["limited"].url, max_retries=0, _sleep=no_sleep)
        stream = client.apps.web.search_stream([{"query": "rust"}])
        self.assertIsNone(stream.rate_limit)  # nothing sent yet
        with stream:
            self.assertEqual(next(stream)["event"], "group")
            state = assert_one_left(self, stream.rate_limit)
            self.assertEqual(len(stream.final_response()["results"]), 1)
            self.assertEqual(stream.rate_limit, state)
        # What the headers said is what skill info's peek says now.
        peeked = client.apps.web.info().get("rate_limit")
        assert peeked is not None
        self.assertEqual(peeked["remaining"], state.remaining)

        # The last search of the window, read whole: its headers, replayed by a server that does
        # not stream, give a stream the same state from its one `done` event.
        last = client.apps.web.with_raw_response.search([{"query": "rust"}])
        assert last.rate_limit is not None
        self.assertEqual(last.rate_limit.remaining, 0)
        replayed = tuple(f"{name}: {last.headers[name]}" for name in ("ratelimit", "ratelimit-policy"))
        json_server = answering_server(200, json.dumps(last.parse()).encode("utf-8"), replayed)
        try:
            plain = OpenMates(base_url=json_server.url).apps.web.search_stream([{"query": "rust"}])
            self.assertEqual([event["event"] for event in plain], ["done"])
            self.assertEqual(plain.rate_limit, last.rate_limit)
        finally:
            json_server.close()

        refused_stream = client.apps.web.search_stream([{"query": "rust"}])
        with self.assertRaises(RateLimitError) as caught:
            refused_stream.final_response()
        refused = caught.exception.rate_limit
        assert refused is not None
        self.assertEqual((refused.limit, refused.remaining, refused.policy), (2, 0, "per-key"))
        self.assertEqual(str(refused.reset_seconds), caught.exception.headers.get("retry-after"))
        self.assertIsNone(refused_stream.rate_limit)  # no stream began

    def test_none_when_the_limit_is_off(self) -> None:
        stream = OpenMates(base_url=_servers["unlimited"].url).apps.web.search_stream([{"query": "rust"}])
        self.assertEqual(len(stream.final_response()["results"]), 1)
        self.assertIsNone(stream.rate_limit)


class AsyncRateLimit(unittest.TestCase):
    def test_state_on_results(self) -> None:
        async def run() -> None:
            async with AsyncOpenMates(api_key=OTHER_KEY, base_url=_servers["limited"].url, max_retries=0) as client:
                response = await client.apps.web.with_raw_response.search([{"query": "rust"}])
                state = response.rate_limit
                assert state is not None
                self.assertEqual((state.limit, state.remaining, state.policy), (2, 1, "per-key"))
                info = await client.apps.web.with_raw_response.info()
                peeked = info.parse().get("rate_limit")
                assert peeked is not None
                self.assertEqual(peeked["remaining"], 1)

        asyncio.run(run())

    def test_stream_state_from_the_first_event_and_none_when_the_limit_is_off(self) -> None:
        async def run() -> None:
            limited = AsyncOpenMates(api_key=ASYNC_STREAM_KEY, base_url=_servers["limited"].url, max_retries=0)
            async with limited, limited.apps.web.search_stream([{"query": "rust"}]) as stream:
                self.assertIsNone(stream.rate_limit)
                self.assertEqual((await stream.__anext__())["event"], "group")
                state = stream.rate_limit
                assert state is not None
                self.assertEqual((state.limit, state.remaining, state.policy), (2, 1, "per-key"))
                await stream.final_response()
            async with AsyncOpenMates(base_url=_servers["unlimited"].url) as unlimited:
                plain = unlimited.apps.web.search_stream([{"query": "rust"}])
                self.assertEqual(len((await plain.final_response())["results"]), 1)
                self.assertIsNone(plain.rate_limit)

        asyncio.run(run())


if __name__ == "__main__":
    unittest.main()
