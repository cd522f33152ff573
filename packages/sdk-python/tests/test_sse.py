"""The event stream decoder against the cases of the HTML standard's "Server-sent events" section
(event stream interpretation), fed as whole streams and split at every byte."""

import unittest
from typing import List

from openmates._sse import ServerSentEvent, SSEDecoder


def decode(stream: bytes, *, step: int = 0) -> List[ServerSentEvent]:
    """Every event of `stream`, fed whole or in pieces of `step` bytes."""
    decoder = SSEDecoder()
    if step == 0:
        return decoder.feed(stream)
    events: List[ServerSentEvent] = []
    for start in range(0, len(stream), step):
        events.extend(decoder.feed(stream[start : start + step]))
    return events


class SSEDecoderTest(unittest.TestCase):
    def assert_decodes(self, stream: bytes, expected: List[ServerSentEvent]) -> None:
        for step in (0, 1, 2, 3, 7):
            with self.subTest(step=step):
                self.assertEqual(decode(stream, step=step), expected)

    def test_an_event_with_a_type_and_data_is_dispatched_on_a_blank_line(self) -> None:
        self.assert_decodes(b'event: group\ndata: {"id": 1}\n\n', [ServerSentEvent("group", '{"id": 1}', "")])

    def test_comments_are_ignored_and_counted(self) -> None:
        decoder = SSEDecoder()
        stream = b": keep-alive\n\n:another\n\nevent: done\n: between fields\ndata: x\n\n"
        self.assertEqual(decoder.feed(stream), [ServerSentEvent("done", "x", "")])
        self.assertEqual(decoder.comments, 3)

    def test_data_lines_are_joined_by_line_feeds(self) -> None:
        self.assert_decodes(b"data: first\ndata:second\ndata\ndata:  two spaces\n\n", [
            ServerSentEvent("message", "first\nsecond\n\n two spaces", "")
        ])

    def test_crlf_cr_and_lf_all_end_lines_also_split_between_reads(self) -> None:
        self.assert_decodes(
            b"event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n",
            [ServerSentEvent("a", "1", ""), ServerSentEvent("b", "2", ""), ServerSentEvent("c", "3", "")],
        )

    def test_a_leading_bom_is_dropped_and_utf8_split_between_reads_survives(self) -> None:
        stream = "\ufeffdata: ünïcødé ✓\n\n".encode("utf-8")
        self.assert_decodes(stream, [ServerSentEvent("message", "ünïcødé ✓", "")])

    def test_an_event_without_data_is_not_dispatched_and_its_type_is_forgotten(self) -> None:
        self.assert_decodes(b"event: group\n\ndata: x\n\n", [ServerSentEvent("message", "x", "")])

    def test_id_carries_over_retry_is_recorded_and_unknown_fields_are_ignored(self) -> None:
        decoder = SSEDecoder()
        events = decoder.feed(b"id: 7\nretry: 1500\nfoo: bar\ndata: a\n\ndata: b\n\nid: x\0y\nretry: 1s\ndata: c\n\n")
        self.assertEqual([event.id for event in events], ["7", "7", "7"])
        self.assertEqual(decoder.retry, 1500)

    def test_an_event_the_stream_ends_in_the_middle_of_is_not_dispatched(self) -> None:
        self.assert_decodes(b"event: done\ndata: {\"partial\"", [])
        self.assert_decodes(b"data: whole\n\ndata: cut\n", [ServerSentEvent("message", "whole", "")])


if __name__ == "__main__":
    unittest.main()
