"""Runs axe-core and measures chart text in headless Chromium (driven by selenium).

Usage: axe_check.py AXE_JS CHROMEDRIVER PAGE [PAGE ...]

Each PAGE is an HTML file, loaded at 320, 360, 768 and 1280 px wide. The page's
Content-Security-Policy is bypassed through the DevTools protocol (in this test
only, so the injected axe script can run). For every page and width the script
prints one JSON line:
  {"page": ..., "width": ..., "violations": [{"id", "impact", "targets"}],
   "smallest_chart_text": px, "small_texts": [...], "chart_texts": n}
Chart text is every visible SVG <text> in the report (inside a shadow root too);
its rendered size is its computed font size times the SVG's scale on screen.
"""

import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

WIDTHS = [320, 360, 768, 1280]
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

MEASURE = """
const out = {texts: 0, smallest: null, small: []};
const roots = [document];
for (const host of document.querySelectorAll('*')) if (host.shadowRoot) roots.push(host.shadowRoot);
for (const root of roots) {
  for (const text of root.querySelectorAll('svg text')) {
    const box = text.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;          // not displayed at this width
    const svg = text.ownerSVGElement;
    const matrix = text.getScreenCTM();
    if (!svg || !matrix) continue;
    const scale = Math.sqrt(Math.abs(matrix.a * matrix.d - matrix.b * matrix.c));
    const size = parseFloat(getComputedStyle(text).fontSize) * scale;
    out.texts += 1;
    if (out.smallest === null || size < out.smallest) out.smallest = size;
    if (size < 12 - 0.01) out.small.push(text.textContent.slice(0, 40) + ' @' + size.toFixed(1) + 'px');
  }
}
return out;
"""


def main() -> int:
    axe_path, driver_path, pages = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(axe_path, encoding="utf-8") as handle:
        axe_source = handle.read()
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
        for page in pages:
            for width in WIDTHS:
                driver.set_window_size(width, 1000)
                # The window's outer size includes no chrome in headless mode; make the viewport exact.
                driver.execute_cdp_cmd(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": 1000, "deviceScaleFactor": 1, "mobile": False},
                )
                driver.get("file://" + page)
                driver.execute_script(axe_source)
                result = driver.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})"
                    ".then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact,"
                    " targets: v.nodes.slice(0, 5).map(n => JSON.stringify(n.target) + ' ' + n.failureSummary.slice(0, 200))}))))"
                    ".catch(e => done([{id: 'axe-error', impact: 'critical', targets: [String(e)]}]));" % json.dumps(TAGS)
                )
                measured = driver.execute_script(MEASURE)
                print(
                    json.dumps(
                        {
                            "page": page,
                            "width": width,
                            "violations": result,
                            "chart_texts": measured["texts"],
                            "smallest_chart_text": measured["smallest"],
                            "small_texts": measured["small"][:8],
                        }
                    ),
                    flush=True,
                )
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
