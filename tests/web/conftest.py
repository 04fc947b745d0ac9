"""Browser tests of the web client: a real server process and headless Chromium (Debian's
`chromium`, driven by Playwright's Python package; no browser download is ever needed).

Skipped, with the reason, when /usr/bin/chromium or the playwright package is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("GOLDFIELDS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Generous: each wait ends as soon as its event happens, and a CI machine shared with other
# jobs can take tens of seconds to serve a page (scripts/test-under-load).
WAIT_MS = 90_000


def _missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM}: apt-get install -y chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is missing: pip install playwright (never `playwright install`)"
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: end-to-end tests in headless Chromium (tests/web)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here) and "browser" in item.keywords and reason:
            item.add_marker(pytest.mark.skip(reason=reason))


class LiveServer(ServerProcess):
    """The server process, with JSON helpers for setting up tables."""

    def get(self, path: str) -> Any:
        r = httpx.get(f"{self.base}{path}", timeout=10)
        r.raise_for_status()
        return r.json()

    def post(self, path: str, body: Any) -> Any:
        r = httpx.post(f"{self.base}{path}", json=body, timeout=10)
        assert r.status_code in (200, 201), r.text
        return r.json()


@pytest.fixture(scope="module")
def bot_delay() -> float:
    """Seconds the module's server makes a bot wait before it moves: long enough for a page to
    show each move as a person would see it. A module overrides this fixture to change it."""
    return 0.05


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, bot_delay: float) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("web") / "goldfields.db", bot_delay=bot_delay).start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    # expect(...) waits as long as the pages do (its own default is 5 s).
    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, server: LiveServer) -> Iterator[Any]:
    """new_page(viewport=..., locale=...) -> a page in a fresh browser context (its own storage)."""
    contexts = []
    errors: list[str] = []

    def note(page: Any, msg: Any) -> None:
        # An HTTP error answer is logged by the browser itself; the page shows it in words.
        if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
            errors.append(f"{page.url}: console {msg.text}")

    def make(**kwargs: Any) -> Any:
        kwargs.setdefault("viewport", {"width": 1280, "height": 900})
        kwargs.setdefault("locale", "en-GB")
        # Playwright's wait_for_function evaluates strings in the page, which the server's
        # Content-Security-Policy forbids; test_web_security.py runs the client under it.
        kwargs.setdefault("bypass_csp", True)
        context = browser.new_context(base_url=server.base, **kwargs)
        context.set_default_timeout(WAIT_MS)  # generous: see WAIT_MS
        context.set_default_navigation_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda err: errors.append(f"{page.url}: {err}"))
        page.on("console", lambda msg: note(page, msg))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, "errors in the page:\n" + "\n".join(errors)


def screenshot(page: Any, name: str, full_page: bool = True) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    # Finite animations (a dialog fading in) end first, so the picture shows the page at rest.
    page.evaluate(
        "Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity)"
        ".map((a) => a.finished.catch(() => null)))"
    )
    page.screenshot(path=str(path), full_page=full_page)
    return path
