"""Loads a Perfetto UI served on loopback (by vizviewer) in headless Chromium and saves a screenshot.

Usage: python3 tools/perfetto_screenshot.py URL OUT.png [SLICE-NAME-TO-SELECT]
Expands the process track so that the lanes (threads) and their job slices are visible.
"""
import sys
import time

from playwright.sync_api import sync_playwright


def main(url: str, out: str, select: str = "") -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        # The UI loads its WASM trace processor, then fetches the trace from vizviewer.
        deadline = time.time() + 60
        while time.time() < deadline:
            if page.locator(".pf-track, .track").count() > 0:
                break
            time.sleep(0.5)
        time.sleep(3)
        # Expand every collapsed track group (the process holds one track per lane).
        for _ in range(3):
            expanders = page.locator("button[title*='xpand'], .pf-track__expand-button, .fold-button")
            if expanders.count() == 0:
                break
            for i in range(expanders.count()):
                try:
                    expanders.nth(i).click(timeout=2000)
                except Exception:
                    pass
            time.sleep(1)
        time.sleep(1)
        if select:
            # Searching selects the first matching slice: the details panel shows its args and the
            # timeline draws its flow arrows (causes).
            box = page.locator("input").first
            box.click()
            box.fill(select)
            box.press("Enter")
            time.sleep(1)
            box.press("Enter")
            time.sleep(2)
        page.screenshot(path=out)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
