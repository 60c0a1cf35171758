"""Drives `folio preview` in headless Chromium (selenium) as an author would.

Usage: preview_check.py CHROMEDRIVER URL TEMPLATE SECOND_NAME AXE_JS

Checks, printing one JSON object at the end:
- the page shows the PDF's pages (loaded pictures) and the HTML in its frame;
- an edit of TEMPLATE is on screen (new picture loaded, new text in the frame);
- a broken edit shows file:line:column and keeps the pages; fixing it clears the error;
- choosing record 2 shows SECOND_NAME;
- every request the page made went to 127.0.0.1;
- axe-core's violations on the preview page at 1280 and 360 px.
The template is left as it was found.
"""

import json
import re
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def wait(condition, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:  # the page is being redrawn
            pass
        time.sleep(0.05)
    return None


def main() -> int:
    driver_path, url, template, second_name, axe_path = sys.argv[1:6]
    with open(template, encoding="utf-8") as handle:
        original = handle.read()
    with open(axe_path, encoding="utf-8") as handle:
        axe_source = handle.read()
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    result = {}
    try:
        driver.get(url)

        def page_state():
            images = driver.find_elements(By.CSS_SELECTOR, "#pages img")
            loaded = [image for image in images if driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)]
            return {"pages": len(images), "loaded": len(loaded), "source": images[0].get_attribute("src") if images else ""}

        def frame_text():
            driver.switch_to.frame(driver.find_element(By.ID, "report"))
            try:
                return driver.find_element(By.TAG_NAME, "body").text
            finally:
                driver.switch_to.default_content()

        first = wait(lambda: (lambda s: s if s["pages"] > 0 and s["loaded"] == s["pages"] else None)(page_state()))
        result["first"] = first
        result["first_html_has_title"] = bool(wait(lambda: "Weekly Care Summary" in frame_text()))

        # An edit: the title changes in both views.
        with open(template, "w", encoding="utf-8") as handle:
            handle.write(original.replace("title: Weekly Care Summary", "title: Weekly Care Summary, edited", 1))
        start = time.time()
        edited = wait(lambda: (lambda s: s if s["source"] != first["source"] and s["loaded"] == s["pages"] else None)(page_state()))
        result["edit_seconds"] = time.time() - start
        result["edited"] = edited
        result["edited_html"] = bool(wait(lambda: "edited" in frame_text()))

        # A broken edit: the error at its line, the pages kept.
        with open(template, "w", encoding="utf-8") as handle:
            handle.write(original.replace("title: Weekly Care Summary", "title: [Weekly Care Summary", 1))
        message = wait(lambda: driver.find_element(By.ID, "error-message").text if driver.find_element(By.ID, "error").is_displayed() else None)
        result["error_message"] = message
        result["error_located"] = bool(message and re.search(r"weekly-summary\.yaml:\d+:\d+: error: ", message))
        result["pages_kept"] = page_state()["pages"]

        # Fixed: the error goes.
        with open(template, "w", encoding="utf-8") as handle:
            handle.write(original)
        result["error_cleared"] = bool(wait(lambda: not driver.find_element(By.ID, "error").is_displayed()))

        # Another record.
        Select(driver.find_element(By.ID, "record")).select_by_value("2")
        result["second_record_shown"] = bool(wait(lambda: second_name in frame_text()))

        # Accessibility of the preview page itself (its policy bypassed in this test only, for axe).
        driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
        driver.refresh()
        wait(lambda: page_state()["pages"] > 0)
        violations = []
        for width in [1280, 360]:
            driver.set_window_size(width, 1000)
            driver.execute_script(axe_source)
            answer = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "axe.run(document, {runOnly: {type: 'tag', values: %s}}).then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, targets: v.nodes.map(n => n.target)}))));"
                % json.dumps(TAGS))
            violations += [dict(item, width=width) for item in answer]
        result["violations"] = violations

        # Every request went to this machine.
        urls = set()
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.add(message["params"]["request"]["url"])
        result["requests"] = len(urls)
        result["elsewhere"] = sorted(u for u in urls if not u.startswith("http://127.0.0.1:") and not u.startswith("data:"))
    finally:
        with open(template, "w", encoding="utf-8") as handle:
            handle.write(original)
        driver.quit()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
