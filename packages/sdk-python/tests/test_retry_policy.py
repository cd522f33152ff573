"""The retry policy and error classes the contract declares for both SDKs: the wait computation
(`retry-after-ms`, `Retry-After` seconds or HTTP date, the 60 s cap, the jittered backoff), the class
each status raises, and `on_retry` seeing every attempt against scripted servers on loopback."""

import asyncio
import json
import socket
import threading
import unittest
from email.utils import format_datetime
from datetime import datetime, timezone
from typing import Any, Dict, List, Optional, Tuple, Union, cast

from openmates import AsyncOpenMates, OpenMates, OpenMatesError, RetryInfo
from openmates._base_client import backoff_delay, is_retryable, retry_after, retry_delay
from openmates._exceptions import ERROR_CLASSES_BY_NAME, APIError, make_status_error
from openmates._generated import ERROR_STATUS, ErrorCode
from openmates._generated_policy import ERROR_CLASSES

from .support import SocketServer, read_head

NOW = datetime(2025, 1, 1, tzinfo=timezone.utc).timestamp()


def http_date(seconds_after_now: float) -> str:
    return format_datetime(datetime.fromtimestamp(NOW + seconds_after_now, tz=timezone.utc), usegmt=True)


class WaitTest(unittest.TestCase):
    def wait(self, headers: Dict[str, str]) -> Optional[int]:
        return retry_after(headers, now=NOW)

    def test_retry_after_ms_comes_first_rounded_up_and_falls_back_to_retry_after_when_it_does_not_parse(self) -> None:
        self.assertEqual(self.wait({"retry-after-ms": "12.2", "retry-after": "5"}), 13)
        self.assertEqual(self.wait({"retry-after-ms": " 40 "}), 40)
        self.assertEqual(self.wait({"retry-after-ms": "soon", "retry-after": "5"}), 5000)
        self.assertEqual(self.wait({"retry-after-ms": "1e3", "retry-after": "2"}), 2000)
        # A parsable retry-after-ms over the cap decides: the backoff, not Retry-After.
        self.assertIsNone(self.wait({"retry-after-ms": "60001", "retry-after": "2"}))

    def test_retry_after_is_seconds_or_an_http_date(self) -> None:
        self.assertEqual(self.wait({"retry-after": "2"}), 2000)
        self.assertEqual(self.wait({"retry-after": "0.5"}), 500)
        self.assertEqual(self.wait({"retry-after": "0"}), 0)
        self.assertEqual(self.wait({"retry-after": http_date(7)}), 7000)

    def test_a_wait_of_exactly_60_s_is_honoured_and_nothing_longer(self) -> None:
        self.assertEqual(self.wait({"retry-after": "60"}), 60000)
        self.assertIsNone(self.wait({"retry-after": "60.001"}))
        self.assertEqual(self.wait({"retry-after-ms": "60000"}), 60000)
        self.assertEqual(self.wait({"retry-after": http_date(60)}), 60000)
        self.assertIsNone(self.wait({"retry-after": http_date(61)}))

    def test_an_http_date_counts_only_as_imf_fixdate_naming_a_real_day(self) -> None:
        self.assertEqual(self.wait({"retry-after": "Wed, 01 Jan 2025 00:00:07 GMT"}), 7000)
        for value in [
            "2025-01-01T00:00:07Z",
            "Wednesday, 01-Jan-25 00:00:07 GMT",
            "Thu, 01 Jan 2025 00:00:07 GMT",
            "Sat, 30 Feb 2025 00:00:07 GMT",
            "Wed, 1 Jan 2025 00:00:07 GMT",
        ]:
            self.assertIsNone(self.wait({"retry-after": value}), value)

    def test_a_missing_unparsable_or_negative_wait_is_ignored(self) -> None:
        for value in ["", "soon", "-1", "\u0663", http_date(-60)]:
            self.assertIsNone(self.wait({"retry-after": value}), value)
        self.assertIsNone(self.wait({}))

    def test_the_backoff_is_half_a_second_doubling_to_8_s_within_25_percent(self) -> None:
        self.assertEqual([backoff_delay(n, lambda: 0.5) for n in (0, 1, 2, 3, 4, 5, 10)], [500, 1000, 2000, 4000, 8000, 8000, 8000])
        for retry in range(8):
            base = min(500 * 2**retry, 8000)
            for r in (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.999999):
                delay = backoff_delay(retry, lambda: r)
                self.assertTrue(base * 0.75 <= delay <= base * 1.25, (retry, r, delay))
                self.assertIsInstance(delay, int)
            self.assertEqual(backoff_delay(retry, lambda: 0.0), base * 0.75)
        # Half up, as the npm SDK's Math.round: 500 × 0.751 = 375.5 waits 376 ms.
        self.assertEqual(backoff_delay(0, lambda: 0.002), 376)

    def test_the_backoff_stands_in_when_the_server_names_no_usable_wait(self) -> None:
        self.assertEqual(retry_delay(None, 2, lambda: 0.5), 2000)
        self.assertEqual(retry_delay({"retry-after": "61"}, 1, lambda: 0.5), 1000)
        self.assertEqual(retry_delay({"retry-after-ms": "7"}, 3, lambda: 0.5), 7)


class ErrorClassesTest(unittest.TestCase):
    def test_every_row_of_the_contract_table_has_its_class_extending_its_parent(self) -> None:
        self.assertEqual(sorted(ERROR_CLASSES_BY_NAME), sorted(row.name for row in ERROR_CLASSES))
        for row in ERROR_CLASSES:
            cls = ERROR_CLASSES_BY_NAME[row.name]
            self.assertTrue(issubclass(cls, ERROR_CLASSES_BY_NAME[row.parent]), row.name)

    def test_each_status_raises_its_class_with_the_status_and_every_code_it_maps_from(self) -> None:
        for row in ERROR_CLASSES:
            if row.status is None:
                continue
            self.assertTrue(row.codes, row.name)
            for code in row.codes:
                self.assertEqual(ERROR_STATUS[cast(ErrorCode, code)], row.status)
                body: Dict[str, object] = {"error": "x", "code": code}
                if row.body == "WebSearchResponse":
                    body.update(provider="Brave Search", results=[])
                error = make_status_error(row.status, body, {"x-request-id": "req_1"})
                self.assertIs(type(error), ERROR_CLASSES_BY_NAME[row.name])
                self.assertEqual((error.status, error.code, error.request_id), (row.status, code, "req_1"))

    def test_each_class_is_documented_as_the_contract_documents_it(self) -> None:
        for row in ERROR_CLASSES:
            doc = ERROR_CLASSES_BY_NAME[row.name].__doc__ or ""
            self.assertEqual(" ".join(line.strip() for line in doc.splitlines()), row.doc)

    def test_each_status_is_retried_as_its_class_docstring_says(self) -> None:
        for row in ERROR_CLASSES:
            if row.status is None or row.name == "InternalServerError":
                continue
            body: Dict[str, object] = {"provider": "Brave Search", "results": []}
            if row.code is not None:
                body = {"error": "refused", "code": row.code}
            with_wait = make_status_error(row.status, body, {"retry-after": "1"})
            without = make_status_error(row.status, body, {})
            self.assertEqual(is_retryable(with_wait), "Retried" in row.doc, row.name)
            self.assertEqual(
                is_retryable(without), "Retried" in row.doc and "when the answer carries" not in row.doc, row.name
            )

    def test_a_status_no_row_names_falls_back_to_a_server_error_or_api_error(self) -> None:
        page = "<html>Bad Gateway</html>"
        self.assertEqual(type(make_status_error(502, page, {})).__name__, "InternalServerError")
        self.assertEqual(type(make_status_error(504, page, {})).__name__, "InternalServerError")
        self.assertIs(type(make_status_error(418, page, {})), APIError)


Answer = Union[Tuple[int, Dict[str, str], object], str]
"""A scripted answer: status, headers and JSON body, or "drop" to close the connection unanswered."""


class ScriptedServer(SocketServer):
    """Answers each request with the next scripted answer (the last repeats)."""

    def __init__(self, answers: List[Answer]) -> None:
        self._answers = answers
        self.requests = 0
        self._count = threading.Lock()
        super().__init__(self._handle)

    def _handle(self, connection: socket.socket) -> None:
        read_head(connection)
        with self._count:
            self.requests += 1
            answer = self._answers[min(self.requests, len(self._answers)) - 1]
        if isinstance(answer, str):
            return  # "drop"
        status, headers, body = answer
        data = json.dumps(body).encode()
        head = [f"HTTP/1.1 {status} Status", "Content-Type: application/json", f"Content-Length: {len(data)}"]
        head += [f"{name}: {value}" for name, value in headers.items()] + ["Connection: close"]
        connection.sendall(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + data)


OK: Dict[str, object] = {"provider": "Brave Search", "results": [{"id": 1, "results": []}]}
RATE_LIMITED: Dict[str, object] = {
    "provider": "Brave Search",
    "results": [{"id": 1, "results": [], "error": {"code": "provider_rate_limited", "message": "Rate limited."}}],
    "error": "Every search failed at the provider (1).",
    "code": "provider_rate_limited",
}


def refusal(code: str) -> Dict[str, object]:
    return {"error": "Refused.", "code": code}


SEQUENCE: List[Answer] = [
    (429, {"Retry-After": "0"}, refusal("rate_limited")),
    (502, {"Retry-After": "1", "retry-after-ms": "20"}, RATE_LIMITED),
    "drop",
    (503, {"retry-after-ms": "5"}, refusal("not_configured")),
    (200, {}, OK),
]


class OnRetryTest(unittest.TestCase):
    def setUp(self) -> None:
        self.servers: List[ScriptedServer] = []

    def tearDown(self) -> None:
        for server in self.servers:
            server.close()

    def serve(self, answers: List[Answer]) -> ScriptedServer:
        server = ScriptedServer(answers)
        self.servers.append(server)
        return server

    def check_sequence(self, seen: List[RetryInfo], sleeps: List[float], server: ScriptedServer) -> None:
        self.assertEqual(server.requests, 5)
        self.assertEqual([(r.attempt, r.status, type(r.error).__name__) for r in seen], [
            (1, 429, "RateLimitError"),
            (2, 502, "ProviderError"),
            (3, None, "APIConnectionError"),
            (4, 503, "ServiceUnavailableError"),
        ])
        waits = [r.delay_ms for r in seen]
        self.assertEqual([waits[0], waits[1], waits[3]], [0, 20, 5])
        # The dropped connection named no wait: the backoff of retry 2 (2 s ± 25 %).
        self.assertTrue(1500 <= waits[2] <= 2500, waits)
        self.assertEqual(sleeps, [w / 1000 for w in waits])

    def test_on_retry_sees_each_failed_attempt_and_its_wait_before_the_sdk_waits(self) -> None:
        server = self.serve(SEQUENCE)
        seen: List[RetryInfo] = []
        sleeps: List[float] = []
        client = OpenMates(base_url=server.url, max_retries=4, on_retry=seen.append, _sleep=sleeps.append)
        self.assertEqual(client.apps.web.search([{"query": "rust"}]), OK)
        self.check_sequence(seen, sleeps, server)

    def test_the_async_client_and_search_stream_retry_alike(self) -> None:
        server = self.serve(SEQUENCE)
        seen: List[RetryInfo] = []
        sleeps: List[float] = []

        async def record(seconds: float) -> None:
            sleeps.append(seconds)

        async def run() -> object:
            client = AsyncOpenMates(base_url=server.url, max_retries=4, on_retry=seen.append, _sleep=record)
            return await client.apps.web.search([{"query": "rust"}])

        self.assertEqual(asyncio.run(run()), OK)
        self.check_sequence(seen, sleeps, server)

        stream_server = self.serve(SEQUENCE)
        stream_seen: List[RetryInfo] = []
        stream_sleeps: List[float] = []
        client = OpenMates(
            base_url=stream_server.url, max_retries=4, on_retry=stream_seen.append, _sleep=stream_sleeps.append
        )
        with client.apps.web.search_stream([{"query": "rust"}]) as stream:
            self.assertEqual(stream.final_response(), OK)
        self.check_sequence(stream_seen, stream_sleeps, stream_server)

    def test_a_500_or_a_502_without_retry_after_is_never_retried(self) -> None:
        once: List[Tuple[int, Dict[str, str], object]] = [(500, {}, refusal("internal_error")), (502, {}, RATE_LIMITED)]
        for answer in once:
            server = self.serve([answer, (200, {}, OK)])
            seen: List[RetryInfo] = []
            client = OpenMates(base_url=server.url, max_retries=3, on_retry=seen.append, _sleep=lambda _: None)
            with self.assertRaises(APIError) as caught:
                client.apps.web.search([{"query": "rust"}])
            self.assertEqual(caught.exception.status, answer[0])
            self.assertEqual(type(caught.exception).__name__, "ProviderError" if answer[0] == 502 else "InternalServerError")
            self.assertEqual(server.requests, 1)
            self.assertEqual(seen, [])

    def test_on_retry_must_be_callable(self) -> None:
        with self.assertRaises(OpenMatesError) as caught:
            OpenMates(on_retry=cast(Any, "log"))
        self.assertIn("on_retry must be a callable", str(caught.exception))


if __name__ == "__main__":
    unittest.main()


class QuotaExceededTest(unittest.TestCase):
    def test_a_spent_quota_is_its_own_class_with_the_reset_time_and_is_never_retried(self) -> None:
        from openmates import QuotaExceededError, RateLimitError

        before = datetime.now(timezone.utc).timestamp()
        error = make_status_error(429, {"error": "spent", "code": "quota_exceeded"}, {"retry-after": "3600"})
        self.assertIsInstance(error, QuotaExceededError)
        self.assertNotIsInstance(error, RateLimitError)
        reset_at = cast(QuotaExceededError, error).reset_at
        assert reset_at is not None
        self.assertGreaterEqual(reset_at.timestamp(), before + 3600)
        self.assertLessEqual(reset_at.timestamp(), datetime.now(timezone.utc).timestamp() + 3600)
        self.assertFalse(is_retryable(error))
        limited = make_status_error(429, {"error": "later", "code": "rate_limited"}, {})
        self.assertIsInstance(limited, RateLimitError)
        self.assertTrue(is_retryable(limited))
