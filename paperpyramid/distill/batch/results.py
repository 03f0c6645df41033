"""Reading batch output files: the OpenAI Batch API's and vLLM's ``run_batch``'s, one JSON
object a line::

    {"id": "batch_req_…", "custom_id": "pp1-…",
     "response": {"status_code": 200, "request_id": "…", "body": {<a chat completion, with usage>}},
     "error": null}

The two differ only in how a failure looks. OpenAI writes an HTTP failure as the status and the
server's ``{"error": {"message": …}}`` body, and a request it never ran (an expired batch) as
``"response": null`` with ``"error": {"code": …, "message": …}``; vLLM writes every failure as
``"status_code": 400`` with ``"body": null`` and the message as a plain string in ``"error"``.
Both become a :class:`~paperpyramid.distill.batch.store.BatchResult` with the reason in one
line. A line that is not such an object (a truncated download) refuses the whole file, naming
the line, so that nothing of a damaged file is stored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperpyramid.distill.batch.store import BatchResult
from paperpyramid.errors import BadInput
from paperpyramid.llm.wire import NotACompletion, read_completion

#: characters of a failure's message kept as its reason
MAX_REASON = 500


class NotABatchOutput(BadInput):
    """A file that is not a batch output file (a line that is not a result object)."""


def read_output_file(path: Path) -> list[BatchResult]:
    """Every result of the batch output file at ``path``; blank lines are skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise NotABatchOutput(f"{path}: cannot be read as a batch output file ({exc})") from exc
    results = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                results.append(read_output_line(line))
            except ValueError as exc:
                raise NotABatchOutput(f"{path}, line {number}: {exc}; nothing of the file was imported") from exc
    return results


def read_output_line(line: str) -> BatchResult:
    """One output line; raises ValueError when it is not a batch result object."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise ValueError(f"not JSON ({type(exc).__name__})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("custom_id"), str) or not data["custom_id"]:
        raise ValueError("not a batch result: no custom_id")
    custom_id = data["custom_id"]
    response, error = data.get("response"), data.get("error")
    if response is not None and not isinstance(response, dict):
        raise ValueError("not a batch result: its response is not an object")
    status = response.get("status_code") if response else None
    status = status if isinstance(status, int) else 0
    body = response.get("body") if response else None
    if status == 200 and error is None and isinstance(body, dict):
        completion = json.dumps(body, ensure_ascii=False)
        try:
            read_completion(completion.encode())
        except NotACompletion as exc:
            return BatchResult(custom_id, 200, None, f"the answer is not a chat completion: {exc}")
        return BatchResult(custom_id, 200, completion, None)
    reason = _message(error) or _message(body.get("error") if isinstance(body, dict) else None) or "no reason given"
    return BatchResult(custom_id, status, None, (f"HTTP {status}: {reason}" if status else reason)[:MAX_REASON])


def _message(error: Any) -> str:
    """An error's message, one line: a string as it is, an object's message (and code)."""
    if isinstance(error, str):
        return " ".join(error.split())
    if isinstance(error, dict):
        message = " ".join(str(error.get("message") or "").split())
        code = error.get("code")
        return f"{message} ({code})" if code and message else message or (str(code) if code else "")
    return ""


__all__ = ["NotABatchOutput", "read_output_file", "read_output_line"]
