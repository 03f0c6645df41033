"""The page's token, read from its address's fragment as given: a ``+``, a ``/`` or an ``=`` in
it (a base64 token holds all three) is the token's, never a form-encoded space. Debian's chromium
driven by Playwright, against the query service on 127.0.0.1 and the scripted LLM server."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.llm import get_llm
from paperpyramid.services.query import create_app
from tests.asgi_server import serve
from tests.fake_llm import FakeLLMServer, llm_settings
from tests.test_ask import answering
from tests.test_distill import make_corpus, paper
from tests.test_web_page import ARGS, CHROMIUM

pytestmark = pytest.mark.browser


@pytest.mark.slow
def test_a_token_with_plus_slash_and_equals_works_from_the_fragment(tmp_path: Path) -> None:
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; .ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package drives the browser (pip install -e '.[dev]')")
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    token = "Zm9v+YmFy/cXV4+=="
    with (
        FakeLLMServer(answering) as llm_server,
        serve(create_app(db, llm=get_llm(llm_settings(llm_server.base_url)), token=token)) as url,
        sync_api.sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for given in (token, token.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")):  # as typed, and percent-encoded
                page = browser.new_page()
                page.set_default_timeout(15_000)
                page.goto(url + "/#token=" + given)
                assert page.evaluate("location.href") == url + "/"
                page.fill("#question", "how large did the shark colony grow")
                page.select_option("#strategy", "bm25")
                page.click("button[type=submit]")
                page.wait_for_selector("#answer a.cite, #answer .error")
                assert page.locator("#answer .error").count() == 0, page.inner_text("#answer")
                assert page.inner_text("#answer").startswith("The shark colony of alpha grew to 34 individuals.")
                page.close()
        finally:
            browser.close()
