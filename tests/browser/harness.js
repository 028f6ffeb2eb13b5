// harness.js: what the browser tests share: the repo's static server on a
// free port, Debian's Chromium through playwright-core, and a page that
// records console errors, failed requests and requests leaving the origin.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, STRICT_CSP, TYPES } from '../../scripts/serve.mjs';
import { figurePage } from '../../scripts/figure-page.mjs';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, CHROMIUM_TEST_EXECUTABLE } from '../../scripts/chromium.mjs';
import { TAGS } from '../../web/figures/registry.js';
import { probes } from './probes.js';

/** Every figure on the article page, in its order there (the registry's). */
export const ALL_FIGURES = TAGS;

/** Where tests write what they measure and show (tests/artifacts/), screenshots in their own folder. */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
export const SCREENSHOTS = `${ARTIFACTS}screenshots/`;
/** Debian's Chromium and the flags every headless run uses (the browser bench too). */
export { CHROMIUM_EXECUTABLE, CHROMIUM_ARGS };

/**
 * Start server (of the repository, or of `root`) and browser, or use
 * another start()'s `browser` (a file's plain and strict-CSP servers share
 * one; the one that launched it closes it); returns {origin, browser,
 * open(path, opts), openFigure(tag, opts), fake(page, path, body), close()}.
 */
export async function start({ csp = false, root, browser: shared } = {}) {
  const server = await serve({ port: 0, csp, root });
  const origin = `http://127.0.0.1:${server.address().port}`;
  // launch() gives every run a fresh temporary profile of its own.
  const browser = shared ?? await chromium.launch({ executablePath: CHROMIUM_TEST_EXECUTABLE, args: CHROMIUM_ARGS });
  await mkdir(SCREENSHOTS, { recursive: true });

  // prepare(page): runs before the page loads (routes, init scripts).
  // `path` is on this server, or a whole URL (another server's page).
  async function open(path, { width = 1100, height = 900, colorScheme = 'light', javaScriptEnabled = true, prepare } = {}) {
    const context = await browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor: 1, javaScriptEnabled });
    const page = await context.newPage();
    const problems = [];
    await page.addInitScript(probes);
    // errors the browser raises itself (a ResizeObserver loop), which Playwright's pageerror does not report
    await page.exposeBinding('__browserError', (_, text) => problems.push(`page error: ${text}`));
    await page.addInitScript(() => addEventListener('error', (e) => {
      if (e instanceof ErrorEvent && e.error == null && e.message) window.__browserError(e.message);
    }));
    await prepare?.(page);
    const requests = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
    await page.goto(new URL(path, origin).href, { waitUntil: 'load' });
    return {
      page, problems, requests, context,
      foreign: () => requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:')),
    };
  }

  // A made-up file at `path`, served to `page` with this server's headers (its
  // CSP, unless `csp` says otherwise): a page no file holds, its script, its data.
  const fake = (page, path, body, { csp: withCsp = csp } = {}) => page.route(new URL(path, origin).href, (r) => r.fulfill({
    status: 200, contentType: TYPES[extname(path)], headers: withCsp ? { 'content-security-policy': STRICT_CSP } : {}, body,
  }));

  // The page a blogger makes for one figure (scripts/figure-page.mjs) at
  // /web/embed/<tag>.html: `tag` with `attrs` and JSON children (`json`, as
  // addFigure's), `hash` on its URL; `opts` as open()'s.
  function openFigure(tag, { attrs, json = {}, hash = '', prepare, ...opts } = {}) {
    const path = `/web/embed/${tag}.html`;
    const html = figurePage(tag, { attrs, children: Object.entries(json).map(([kind, text]) => jsonChild(kind, text)).join('') });
    return open(path + hash, { ...opts, prepare: async (page) => { await fake(page, path, html); await prepare?.(page); } });
  }

  return {
    origin, browser, open, openFigure, fake,
    async close() {
      if (!shared) await browser.close();
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

/**
 * Bring each figure of `page` into view in turn, as a reader scrolling down
 * would (each starts as it nears the viewport), until it has drawn; then back to
 * the top. A viewport that holds the whole page would paint all of it again
 * each time a figure above grows as it starts: for the article, a third more CPU.
 */
export async function drawAll(page, what = page.url()) {
  const stuck = await page.evaluate(async () => {
    const until = Date.now() + 60_000;
    const started = (e) => e.hasAttribute('data-ready') || e.hasAttribute('data-error');
    const figures = [...document.querySelectorAll('*')].filter((e) => e.localName.startsWith('attention-'));
    for (const e of figures) {
      // (again until it starts: a figure above can grow, a link's figure is kept at the top)
      while (!started(e) && Date.now() < until) {
        e.scrollIntoView();
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    window.scrollTo(0, 0);
    return figures.filter((e) => !started(e)).map((e) => e.localName);
  });
  assert.deepEqual(stuck, [], `${what}: figures that did not draw within 60 s`);
}

/**
 * A screenshot of `el` (a locator) at `path`, whole: the viewport made as tall as
 * the figure first. The article skips painting what is out of view
 * (content-visibility), and Chromium's capture of a figure taller than the
 * viewport came out blank there.
 */
export async function screenshot(el, path) {
  const page = el.page();
  const size = page.viewportSize();
  const height = await el.evaluate((e) => Math.ceil(e.getBoundingClientRect().height) + 16);
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  await el.scrollIntoViewIfNeeded();
  await frames(page);
  await el.screenshot({ path });
  if (height > size.height) await page.setViewportSize(size);
}

/** Open `path` (as open()) and draw every figure (drawAll); a test that needs all in view makes the viewport taller after. */
export async function openAll(server, path, { width = 1100, height = 900, colorScheme = 'light', prepare } = {}) {
  const opened = await server.open(path, { width, height, colorScheme, prepare });
  await drawAll(opened.page, path);
  return opened;
}

/** A figure's JSON child as HTML: {example: '…'} is <script type="application/json" data-example>. */
function jsonChild(kind, text) {
  if (/<\/script|<!--/i.test(text)) throw new RangeError(`jsonChild: the ${kind} text cannot hold "</script" or "<!--" in HTML; use addFigure`);
  return `<script type="application/json" data-${kind}>${text}</script>`;
}

/**
 * Put a `tag` element (id "mine", replacing the last one put) first in the
 * page's <main>, with `attrs` and JSON children: `json` maps a kind to its
 * text, {example: '…'} becoming <script type="application/json" data-example>,
 * {strings: '…'} data-strings. Resolves once the figure has drawn or failed.
 */
export const addFigure = (page, tag, { attrs = {}, json = {} } = {}) => page.evaluate(([t, a, j]) => {
  document.querySelector('#mine')?.remove();
  const el = document.createElement(t);
  el.id = 'mine';
  for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
  for (const [kind, text] of Object.entries(j)) {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.dataset[kind] = '';
    script.textContent = text;
    el.append(script);
  }
  document.querySelector('main').prepend(el);
  return new Promise((r) => { const wait = () => (el.hasAttribute('data-ready') || el.hasAttribute('data-error') ? r() : setTimeout(wait, 20)); wait(); });
}, [tag, attrs, json]);

/** The figure's summary text (what its live region announces). */
export const summary = (el) => el.evaluate((e) => e.summary);

/**
 * Give every figure that trains (declares a `steps` budget) its smallest
 * budget, so that the generic tests' presses of "Start training" end soon.
 */
export const shortBudgets = (page) => page.evaluate(() => {
  for (const el of document.querySelectorAll('*')) {
    const steps = el.localName.startsWith('attention-') ? el.constructor.props?.steps : null;
    if (steps) el.setAttribute('steps', String(steps.min));
  }
});

/** Wait two frames for a state change to draw. */
export const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** Runs in the page before its scripts (`page.addInitScript(spyOnWorkers)`): every Worker started and terminated, in order. */
export function spyOnWorkers() {
  const Native = window.Worker;
  const live = new Set();
  const log = []; // ['start' | 'end', the script's URL]
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      this.script = String(url);
      live.add(this);
      log.push(['start', this.script]);
    }

    terminate() {
      if (live.delete(this)) log.push(['end', this.script]);
      super.terminate();
    }
  };
  window.__workers = { log, live: () => [...live].map((w) => w.script) };
}

/**
 * What spyOnWorkers saw, of the workers whose script matches `only`:
 * {started: [url], live: [url], most: the most running at once}.
 */
export async function workersOf(page, only = /./) {
  const { log, live } = await page.evaluate(() => ({ log: window.__workers.log, live: window.__workers.live() }));
  let running = 0;
  let most = 0;
  const started = [];
  for (const [event, url] of log.filter(([, u]) => only.test(u))) {
    if (event === 'start') started.push(url);
    running += event === 'start' ? 1 : -1;
    most = Math.max(most, running);
  }
  return { started, live: live.filter((u) => only.test(u)), most };
}

/**
 * Set the figure `el`'s (a locator's) `lang` and wait until it has rebuilt in
 * that language (its words may have to load first) and drawn.
 */
export async function switchLanguage(el, lang) {
  const want = /^zh/i.test(lang) ? 'zh-CN' : 'en';
  await el.evaluate((e, [l, w]) => {
    e.setAttribute('lang', l);
    const until = Date.now() + 10_000;
    return new Promise((resolve, reject) => {
      const check = () => (e.shadowRoot.querySelector('[role=figure]')?.getAttribute('lang') === w ? resolve()
        : Date.now() > until ? reject(new Error(`${e.localName} did not rebuild in ${w} within 10 s`)) : setTimeout(check, 20));
      check();
    });
  }, [lang, want]);
  await frames(el.page());
}

/** Act on a figure, then its summary and its shadow DOM (`read`, by
 *  default the rendered markup and the canvases' pixels) must both have changed; -> the new summary. */
export async function expectChange(page, tag, act, read = (el) => el.evaluate((e) => e.shadowRoot.innerHTML
  + [...e.shadowRoot.querySelectorAll('canvas')].map((c) => c.toDataURL()).join())) {
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

/**
 * Wait until a measuring figure (cost, efficient) has no sweep running and its
 * status says how the last one ended. The worker test matters: right after a
 * click starts a new sweep the status still shows the last one's words.
 */
export const measured = (page, tag = 'attention-cost', what = /quick look|Done|failed|Stopped/) => page.waitForFunction(([t, src]) => {
  const el = document.querySelector(t);
  return !!el && !el.worker && new RegExp(src).test(el.shadowRoot?.querySelector('.status')?.textContent ?? '');
}, [tag, what.source], { timeout: 600000 });

/** What spyOnWorkers saw of the measuring figures' workers: {live, most, starts}, each a count. */
export async function measuringWorkers(page) {
  const { started, live, most } = await workersOf(page, /(cost|efficient)\.worker\.js$/);
  return { live: live.length, most, starts: started.length };
}

/** How many sizes a measuring figure (`sel`) has measured: its table lists every size it will measure, empty until measured. */
export const sweepRows = (page, sel) => page.evaluate((s) => [...document.querySelector(s).shadowRoot.querySelectorAll('tbody tr')]
  .filter((tr) => !tr.closest('[data-kept]') && tr.cells[1].textContent !== '').length, sel); // (not a table kept out of sight)

/** Words no figure may print: leaked programming values, broken plurals, zero in exponent form. */
export const BAD_WORDING = /\bundefined\b|\bNaN\b|\[object|\b1 (tokens|heads|points|rows|keys)\b|\bRow \d+ see\b|e\+0\b/;


/** Click cell (i, j) of a matrix view (`mat`: a locator of its figure.mat, or of an element holding one). */
export async function clickCell(mat, i, j) {
  const hit = mat.locator('rect.hit');
  const [box, rows, cols] = await hit.evaluate((r) => [r.getBoundingClientRect(), Number(r.dataset.rows), Number(r.dataset.cols)].map((v) => (typeof v === 'number' ? v : { width: v.width, height: v.height })));
  await hit.click({ position: { x: ((j + 0.5) / cols) * box.width, y: ((i + 0.5) / rows) * box.height } });
}

/**
 * Assert two snapshots (window.__fig.snapshot) are equal, naming the first
 * difference briefly; when a link leaves part of `actual`'s view out (a
 * trained run), only what it holds: the values its controls show.
 */
export function assertSameView(actual, expected, message) {
  if (actual.partial) return assert.deepEqual(actual.props, expected.props, `${message} (what a link holds)`);
  for (const key of ['summary', 'controls', 'props']) assert.deepEqual(actual[key], expected[key], `${message} (${key})`);
  // canvases named by place and size
  const size = (c) => c.split(':')[0];
  assert.equal(actual.canvases.length, expected.canvases.length, `${message} (the number of canvases)`);
  actual.canvases.forEach((c, k) => assert.ok(c === expected.canvases[k], `${message} (canvas ${k}, ${size(c)}, is not drawn as it should be, ${size(expected.canvases[k])})`));
  if (actual.html !== expected.html) {
    let i = 0;
    while (actual.html[i] === expected.html[i]) i++;
    const near = (t) => t.slice(Math.max(0, i - 120), i + 80);
    assert.fail(`${message} (markup at ${i}):\n  is:        ${near(actual.html)}\n  should be: ${near(expected.html)}`);
  }
}

/** WCAG contrast ratio of two [r, g, b] colours. */
export function contrastRatio(a, b) {
  const lum = ([r, g, bl]) => [r, g, bl].map((c) => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, v, k) => sum + v * [0.2126, 0.7152, 0.0722][k], 0);
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Pairs of text boxes (or a text box and a control) that overlap, and text cut off by the figure's edge or a clipping box. */
export function layoutProblems({ host, boxes }) {
  const problems = [];
  const inside = (b, r) => b.x >= r.x - 1 && b.y >= r.y - 1 && b.x + b.w <= r.x + r.w + 1 && b.y + b.h <= r.y + r.h + 1;
  for (const b of boxes) {
    if (b.kind === 'control') continue;
    if (!inside(b, host)) problems.push(`"${b.text}" sticks out of the figure`);
    else if (b.clip && !inside(b, b.clip)) problems.push(`"${b.text}" is cut off`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      // typeset math sits in running text, which makes room for it; math against a control still counts
      if ((a.kind === 'control' && b.kind === 'control') || (a.kind === 'math' && b.kind !== 'control' && b.kind !== 'svg')
        || (b.kind === 'math' && a.kind !== 'control' && a.kind !== 'svg')) continue;
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w > 1.5 && h > 1.5) problems.push(`"${a.text}" overlaps "${b.text}"`);
    }
  }
  return problems;
}
