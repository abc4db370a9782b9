"""The optional language-model judge, against a tiny OpenAI-compatible server on 127.0.0.1.

Off unless the environment names an endpoint; its notes ride beside the offline verdict
and never change the score; a server that fails or answers nonsense is an error note.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from sim.interview.llm_judge import (
    ENV_BASE_URL,
    ENV_MODEL,
    LlmConfig,
    llm_config,
    llm_notes,
)
from sim.interview.rubric import judge
from tests import interview_plans as plans


class FakeModel(BaseHTTPRequestHandler):
    """Answers /v1/chat/completions with the reply the test set; records each request."""

    reply: str = ""
    status: int = 200
    seen: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append({"path": self.path, "body": body})
        out = json.dumps({
            "id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": type(self).reply}}],
        }).encode()  # fmt: skip
        self.send_response(type(self).status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    FakeModel.seen, FakeModel.status = [], 200
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), FakeModel)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def test_off_unless_the_environment_names_an_endpoint() -> None:
    assert llm_config({}) is None
    assert llm_config({ENV_BASE_URL: "http://127.0.0.1:1/v1"}) is None
    config = llm_config({ENV_BASE_URL: "http://127.0.0.1:1/v1", ENV_MODEL: "tiny"})
    assert config == LlmConfig("http://127.0.0.1:1/v1", "tiny", "")


def test_notes_come_back_beside_the_offline_verdict(server: str) -> None:
    plan = plans.mediocre()
    report = judge(plan)
    FakeModel.reply = ('Sure: {"notes": {"owners": "Half the warnings are generic.", '
                       '"nonsense": "dropped"}}')  # fmt: skip
    notes = llm_notes(plan, report, LlmConfig(server, "tiny"))
    assert notes.error == "" and notes.notes == {"owners": "Half the warnings are generic."}
    sent = FakeModel.seen[0]
    assert sent["path"] == "/v1/chat/completions" and sent["body"]["model"] == "tiny"
    user = sent["body"]["messages"][1]["content"]
    assert "we keep an eye on it" in user and "owners (Every risk has an owner" in user
    assert judge(plan).score == report.score  # the score never depends on it


def test_a_failing_or_babbling_server_is_an_error_note(server: str) -> None:
    plan = plans.weak()
    report = judge(plan)
    FakeModel.reply = "I cannot help with that."
    assert "could not be read" in llm_notes(plan, report, LlmConfig(server, "tiny")).error
    FakeModel.status = 500
    assert "could not be reached" in llm_notes(plan, report, LlmConfig(server, "tiny")).error
    closed = LlmConfig("http://127.0.0.1:9/v1", "tiny", timeout_s=2.0)
    assert "could not be reached" in llm_notes(plan, report, closed).error


def test_the_rubric_command_prints_the_notes_with_llm(server: str, tmp_path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from sim.cli import app
    from sim.interview.plan import plan_json

    path = tmp_path / "PLAN.json"
    path.write_text(plan_json(plans.weak()), encoding="utf-8")
    FakeModel.reply = '{"notes": {"owners": "Only four risks owned."}}'
    monkeypatch.delenv(ENV_BASE_URL, raising=False)
    missing = CliRunner().invoke(app, ["rubric", str(path), "--reps", "0", "--llm"])
    assert missing.exit_code == 2 and ENV_BASE_URL in missing.stderr
    monkeypatch.setenv(ENV_BASE_URL, server)
    monkeypatch.setenv(ENV_MODEL, "tiny")
    result = CliRunner().invoke(app, ["rubric", str(path), "--reps", "0", "--llm", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["llm"]["notes"] == {"owners": "Only four risks owned."}
    assert data["score"] == judge(plans.weak()).score
