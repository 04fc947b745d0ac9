"""The browser client works under the server's Content-Security-Policy: no inline script or
style, no eval, nothing from another origin. Any violation is a console error, which fails
the test (see ``new_page`` in conftest.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from conftest import LiveServer

pytestmark = pytest.mark.browser


def test_lobby_and_table_run_under_the_content_security_policy(new_page: Any, server: LiveServer) -> None:
    page = new_page(bypass_csp=False)
    csp: list[str] = []
    page.on("response", lambda r: csp.append(r.headers.get("content-security-policy", "")))
    page.goto("/")
    page.fill("#player-name", "Ann")
    page.click("#quick-digging")
    page.wait_for_url(re.compile(r"/table\.html\?t=[\w-]+&seat=0$"))
    page.locator(".hand .card").nth(5).wait_for()
    page.locator(".seat").nth(3).wait_for()
    page.locator("#log li").first.wait_for()
    page.locator("svg#gf-icons").wait_for(state="attached")
    assert csp and all("script-src 'self'" in header for header in csp if header)
    # The icon sprite is hidden by an attribute, not an inline style the policy would block.
    assert page.locator("svg#gf-icons").evaluate("e => getComputedStyle(e).display") == "none"
