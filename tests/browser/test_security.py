"""The content security policy as a real browser applies it: it blocks injected inline
code, and nothing of the app's own pages trips over it."""

from __future__ import annotations

from playwright.sync_api import ConsoleMessage, expect

from tests.browser.conftest import LANDSCAPE, OpenPage

# The accessibility checks' evenings of every game, shared rather than built twice.
from tests.browser.test_accessibility import Seeded, pages, seeded  # noqa: F401


def test_the_policy_blocks_inline_code_but_none_of_the_pages(
    open_page: OpenPage,
    seeded: Seeded,  # noqa: F811
) -> None:
    page = open_page("de", LANDSCAPE)
    refused: list[str] = []

    def listen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(f"{page.url}: {message.text}")

    page.on("console", listen)
    page.goto("/")
    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.injected = true";
          document.body.append(script);
        }"""
    )
    assert page.evaluate("() => window.injected === undefined")
    assert len(refused) == 1, refused  # the policy is on, and this listener hears it
    refused.clear()

    for _name, path in pages(seeded):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    page.goto(f"/evenings/{seeded.evening}")
    expect(page.locator("html")).to_have_class("js")  # the table's own script ran
    page.locator("label.choice:has(input[name=contract][value=doppelt])").tap()
    page.locator("label.choice:has(input[name=bidder][value=Anna])").tap()
    page.locator(".points-entry .keypad button[data-key='4']").tap()
    expect(page.locator("#preview .preview-title")).to_be_visible()  # fetched by the script
    assert refused == []
