"""The pip column's runner: drives the installed `openmates` wheel as a user would.

Started once per parity run with the venv's Python. It first prints `{"ready": {"module", "version"}}`
(so the driver can check that the wheel, not a source checkout, was imported), then reads one case
per line, `{"base_url": ..., "request": ...}`, and prints one line per case: `{"response": ...}`
with what `client.apps.web.search` returned, or `{"error": {...}}` with what it raised (class,
status, code, issues, body, message, and `response` for a ProviderError).
"""

import json
import sys
from typing import Dict, List, Mapping, cast

import openmates
from openmates.types import WebSearchRequestItem


def run_case(case: Mapping[str, object]) -> Dict[str, object]:
    client = openmates.OpenMates(base_url=cast(str, case["base_url"]), api_key="", max_retries=0)
    request = cast(Dict[str, object], case["request"])
    # Validation cases send invalid requests on purpose, past the SDK's static types.
    items = cast(List[WebSearchRequestItem], request.get("requests"))
    extra_body = {key: value for key, value in request.items() if key != "requests"}
    try:
        return {"response": client.apps.web.search(items, extra_body=extra_body)}
    except openmates.APIError as error:
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
        return {"error": raised}
    except openmates.OpenMatesError as error:
        return {"error": {"class": type(error).__name__, "message": str(error)}}


def main() -> None:
    ready = {"module": openmates.__file__, "version": openmates.__version__}
    print(json.dumps({"ready": ready}), flush=True)
    for line in sys.stdin:
        if line.strip():
            # ASCII with \u escapes: any string, a lone surrogate included, survives the pipe.
            print(json.dumps(run_case(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
