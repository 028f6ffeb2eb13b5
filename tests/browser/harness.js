// harness.js: what the browser tests share: the repo's static server on a
// free port, Debian's Chromium through playwright-core, and a page that
// records console errors, failed requests and requests leaving the origin.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';

/** The figures of this issue, in article order. */
export const FIGURES = ['attention-notation', 'attention-dot-product', 'attention-qkv', 'attention-soft-dictionary',
  'attention-matrix', 'attention-multi-head-it', 'attention-multi-head-matmul'];

export const SCREENSHOTS = fileURLToPath(new URL('../artifacts/screenshots/', import.meta.url));
/** Debian's Chromium and the flags every headless run uses (the browser bench too). */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Start server (and browser); returns {origin, open(path, opts), close()}. */
export async function start({ csp = false } = {}) {
  const server = await serve({ port: 0, csp });
  const origin = `http://127.0.0.1:${server.address().port}`;
  // launch() gives every run a fresh temporary profile of its own.
  const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
  await mkdir(SCREENSHOTS, { recursive: true });

  // prepare(page): runs before the page loads (routes, init scripts).
  async function open(path, { width = 1100, height = 900, colorScheme = 'light', javaScriptEnabled = true, prepare } = {}) {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor: 1, javaScriptEnabled });
    const page = await context.newPage();
    await prepare?.(page);
    const problems = [];
    const requests = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(origin + path, { waitUntil: 'load' });
    return {
      page, problems, requests, context,
      foreign: () => requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:')),
    };
  }

  return {
    origin, open,
    async close() {
      await browser.close();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * Scroll a figure into view and wait until it has drawn. Figures above it
 * grow when they start and can push it back out of view, so scroll again
 * until it starts (as a reader would).
 */
export async function ready(page, selector) {
  const el = page.locator(selector).first();
  const started = (sel) => {
    const e = document.querySelector(sel);
    return e && (e.hasAttribute('data-ready') || e.hasAttribute('data-error'));
  };
  for (let attempt = 0; ; attempt++) {
    await el.scrollIntoViewIfNeeded();
    try {
      await page.waitForFunction(started, selector, { timeout: 2000 });
      break;
    } catch (err) {
      if (attempt === 7) throw err;
    }
  }
  const error = await el.getAttribute('data-error');
  if (error !== null) throw new Error(`${selector} failed: ${await el.evaluate((e) => e.shadowRoot.textContent)}`);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return el;
}

/** The figure's summary text (what its live region announces). */
export const summary = (el) => el.evaluate((e) => e.summary);

/** Wait two frames for a state change to draw. */
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Act on a figure, then its summary and its shadow DOM (`read`, by
 *  default the rendered markup) must both have changed; -> the new summary. */
export async function expectChange(page, tag, act, read = (el) => el.evaluate((e) => e.shadowRoot.innerHTML)) {
  const el = await ready(page, tag);
  const [s0, t0] = [await summary(el), await read(el)];
  await act(el);
  await frames(page);
  await page.waitForTimeout(60);
  const [s1, t1] = [await summary(el), await read(el)];
  assert.notEqual(s1, s0, `${tag}: summary unchanged`);
  assert.notEqual(t1, t0, `${tag}: drawing unchanged`);
  return s1;
}

/** Open the article at 360 px in light and dark: every figure in `tags` must
 *  fit the width, and the page must not scroll sideways. `each(page, el, tag)`
 *  adds a file's own checks before the figure's screenshot is taken. */
export async function expectPhoneFit(server, tags, each = async () => {}) {
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems, context } = await server.open('/web/index.html', { width: 360, height: 740, colorScheme });
    for (const tag of tags) {
      const el = await ready(page, tag);
      const width = await el.evaluate((e) => e.getBoundingClientRect().width);
      assert.ok(width <= 360, `${tag} is ${width}px wide`);
      await each(page, el, tag);
      await el.screenshot({ path: `${SCREENSHOTS}${tag}-phone${colorScheme === 'dark' ? '-dark' : ''}.png` });
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 360, `the page scrolls sideways: ${overflow}px`);
    assert.deepEqual(problems, []);
    await context.close();
  }
}
