"""The web page in a real headless browser (Debian's chromium driven by Playwright), against the
query service on 127.0.0.1 and the scripted LLM server: a question in (the walkingrag strategy),
the steps and a partial fact streamed, the answer with a citation that opens the cited passage in
its section, the outline walked."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from paperpyramid.llm import get_llm
from paperpyramid.services.query import create_app
from tests.asgi_server import serve
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings
from tests.test_ask import answering
from tests.test_distill import make_corpus, paper

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: chromium's own connections are refused by a closed network; these keep it from trying
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


FACT = "The shark colony of alpha grew to 34 individuals in survey 2."


def gathering_then_answering(body: dict[str, Any]) -> FakeReply:
    """Walkingrag's rounds get one fact from the shark passage (the same place to look next each
    time, so the second round ends the walk as a cycle); the answer is ``answering``'s."""
    if "partial facts" not in body["messages"][0]["content"]:
        return answering(body)
    shown = re.findall(r'<document passage="(\d+)"[^>]*>\n(.*?)\n</document>', body["messages"][1]["content"], re.S)
    shark = [int(number) for number, text in shown if "shark" in text]
    facts = (
        [{"fact": FACT, "relevance": "the colony's size", "next_source": "later surveys", "expected_info": "growth", "passages": shark}]
        if shark
        else []
    )
    return FakeReply(json.dumps({"facts": facts}))


@pytest.mark.slow
def test_question_steps_answer_and_citation_in_a_browser(tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; .ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package drives the browser (pip install -e '.[dev]')")
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    with (
        FakeLLMServer(gathering_then_answering) as llm_server,
        serve(create_app(db, llm=get_llm(llm_settings(llm_server.base_url)))) as url,
        sync_api.sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.set_default_timeout(15_000)
            page.goto(url + "/")
            page.fill("#question", "how large did the shark colony grow")
            page.select_option("#strategy", "walkingrag")
            page.click("button[type=submit]")
            page.wait_for_selector("#answer a.cite")
            steps = page.locator("#steps li").all_inner_texts()
            assert [step.split(":")[0] for step in steps][:3] == ["search", "round", "fact"]
            assert [step.split(":")[0] for step in steps][-2:] == ["retrieve", "answer"]
            assert page.locator("#steps li.fact").all_inner_texts()[0].startswith(f"fact: {FACT}")
            answer = page.inner_text("#answer")
            assert answer.startswith("The shark colony of alpha grew to 34 individuals. [Colonies of alpha, p. 2]")
            assert "Not supported by the passages" in answer and "Sharks outnumber frogs everywhere." in answer
            page.click("#answer a.cite")
            page.wait_for_selector(".context.cited")
            assert "The shark colony of alpha grew to 34" in page.inner_text(".context.cited")
            assert page.inner_text("#section-title") == "2 Results part 2"
            assert len(page.locator("#outline a").all()) == 3
            shot = Path(os.environ.get("PAPERPYRAMID_SCREENSHOT", tmp_path / "page.png"))
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            page.click("#next")
            page.wait_for_function("document.getElementById('section-title').textContent === '3 Results part 3'")
            page.click("#previous")
            page.wait_for_function("document.getElementById('section-title').textContent === '2 Results part 2'")
        finally:
            browser.close()


@pytest.mark.slow
def test_the_page_takes_the_token_from_its_fragment(tmp_path: Path) -> None:
    """With a token set, the page is opened as /#token=...: the fragment never reaches the server
    (nor its log); the page keeps the token in a same-site cookie, wipes it from the address, and
    its requests carry it. A wrong token is said on the page."""
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; .ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package drives the browser (pip install -e '.[dev]')")
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    token = "s3cret-page-token"
    with (
        FakeLLMServer(answering) as llm_server,
        serve(create_app(db, llm=get_llm(llm_settings(llm_server.base_url)), token=token)) as url,
        sync_api.sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(15_000)
            page.goto(url + "/#token=" + token)
            assert page.evaluate("location.href") == url + "/"  # wiped from the address bar and history
            page.fill("#question", "how large did the shark colony grow")
            page.select_option("#strategy", "bm25")
            page.click("button[type=submit]")
            page.wait_for_selector("#answer a.cite")
            assert page.inner_text("#answer").startswith("The shark colony of alpha grew to 34 individuals.")
            page.click("#answer a.cite")
            page.wait_for_selector(".context.cited")  # the passage, read with the token from the cookie
            other = browser.new_page()
            other.set_default_timeout(15_000)
            other.goto(url + "/#token=wrong")
            other.fill("#question", "sharks")
            other.click("button[type=submit]")
            other.wait_for_selector("#answer .error")
            assert "needs its token" in other.inner_text("#answer")
        finally:
            browser.close()
