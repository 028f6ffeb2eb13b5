// drivers/: one small interface over the three engines the browser tests run in,
// so a test names its engines instead of being written three times.
//   chromium  Debian's Chromium through playwright-core (headless)
//   firefox   Debian's Firefox ESR through puppeteer-core over WebDriver BiDi (headless)
//   webkit    WebKitGTK's MiniBrowser through its WebKitWebDriver (WebDriver classic,
//             selenium-webdriver), on an Xvfb display of its own
//
//   const browser = await launch('firefox');
//   const page = await browser.open(url, { width, height, colorScheme });
//   await page.evaluate(fn, arg)          fn runs in the page (a function, its argument JSON)
//   await page.click(target)              a pointer click at the middle of target, or at {x, y}
//   await page.focus(target); await page.press('ArrowRight'); await page.type('text')
//   await page.drag(from, to)             press at from, move in steps, release at to
//   await page.screenshot(path, target?)  the viewport, or target's box: a PNG (a Buffer), also
//                                         written to path unless it is null
//   page.problems                         console errors and warnings, uncaught errors and
//                                         rejections, HTTP errors (of the test server's pages)
//   await page.close(); await browser.close()
// A target is a deep selector: CSS selectors joined by ' >>> ', each looked up inside the
// shadow root of the element the one before found ('attention-cost >>> button.go'), or
// { selector, text } for the first match whose text (or aria-label) is `text`.
// Pages must come from serveTests() (server.js): it puts the probe (probe.js) first in
// every HTML page, since WebDriver classic cannot run a script before a page's own.
import { chromium } from './chromium.js';
import { firefox } from './firefox.js';
import { webkit } from './webkit.js';

export const LAUNCHERS = { chromium, firefox, webkit };
/** Every engine, in the order tests name them. */
export const ENGINES = Object.keys(LAUNCHERS);

/** Launch `name`'s browser: { name, version, open(url, opts), close() }. */
export function launch(name, opts = {}) {
  const launcher = LAUNCHERS[name];
  if (!launcher) throw new RangeError(`launch: no engine '${name}' (engines: ${ENGINES.join(', ')})`);
  return launcher(opts);
}
