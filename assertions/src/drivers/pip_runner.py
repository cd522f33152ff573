"""The pip column's runner: drives the installed `openmates` wheel as a user would.

Started once per parity run with the venv's Python. It first prints `{"ready": {"module", "version"}}`
(so the driver can check that the wheel, not a source checkout, was imported), then reads one case
per line, `{"base_url": ..., "request": ..., "max_retries": n, "stream"?: true}`, and prints one line per case:
`{"response": ...}` with what `client.apps.web.search` returned, or `{"error": {...}}` with what it
raised (class, status, code, issues, body, message, and `response` for a ProviderError).

Every answer carries `"retries"`: each retry the SDK's `on_retry` reported, as
`{"status", "delay_ms"}` (status null when no answer came).

With `"stream": true` it calls `client.apps.web.search_stream` instead, reads every event, and
answers with `final_response()`'s result or error in the same shape, plus `"groups"`: the ids of the
`group` events, in the order they arrived, and `"events"`: every event's type.
"""

import json
import sys
from typing import Dict, List, Mapping, cast

import openmates
from openmates.types import WebSearchRequestItem


def run_case(case: Mapping[str, object]) -> Dict[str, object]:
    retries: List[Dict[str, object]] = []

    def on_retry(retry: openmates.RetryInfo) -> None:
        retries.append({"status": retry.status, "delay_ms": retry.delay_ms})

    client = openmates.OpenMates(
        base_url=cast(str, case["base_url"]),
        api_key="",
        max_retries=cast(int, case.get("max_retries", 0)),
        on_retry=on_retry,
    )
    return {**search(client, case), "retries": retries}


def search(client: openmates.OpenMates, case: Mapping[str, object]) -> Dict[str, object]:
    request = cast(Dict[str, object], case["request"])
    # Validation cases send invalid requests on purpose, past the SDK's static types.
    items = cast(List[WebSearchRequestItem], request.get("requests"))
    extra_body = {key: value for key, value in request.items() if key != "requests"}
    if case.get("stream") is True:
        return run_stream(client, items, extra_body)
    try:
        return {"response": client.apps.web.search(items, extra_body=extra_body)}
    except openmates.OpenMatesError as error:
        return {"error": describe(error)}


def run_stream(
    client: openmates.OpenMates, items: List[WebSearchRequestItem], extra_body: Mapping[str, object]
) -> Dict[str, object]:
    groups: List[object] = []
    events: List[str] = []
    with client.apps.web.search_stream(items, extra_body=extra_body) as stream:
        try:
            for event in stream:
                events.append(event["event"])
                if event["event"] == "group":
                    groups.append(event["data"]["id"])
        except openmates.OpenMatesError:
            pass  # final_response raises it again
        try:
            answer: Dict[str, object] = {"response": stream.final_response()}
        except openmates.OpenMatesError as error:
            answer = {"error": describe(error)}
    return {**answer, "groups": groups, "events": events}


def describe(error: openmates.OpenMatesError) -> Dict[str, object]:
    """What a raised error exposes, as JSON."""
    if not isinstance(error, openmates.APIError):
        return {"class": type(error).__name__, "message": str(error)}
    raised: Dict[str, object] = {
        "class": type(error).__name__,
        "status": error.status,
        "code": error.code,
        "issues": error.issues,
        "request_id": error.request_id,
        "body": error.body,
        "message": str(error),
    }
    if isinstance(error, openmates.ProviderError):
        raised["response"] = error.response
    return raised


def main() -> None:
    ready = {"module": openmates.__file__, "version": openmates.__version__}
    print(json.dumps({"ready": ready}), flush=True)
    for line in sys.stdin:
        if line.strip():
            # ASCII with \u escapes: any string, a lone surrogate included, survives the pipe.
            print(json.dumps(run_case(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
