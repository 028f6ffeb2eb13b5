// phone.test.js: the figures as a phone's reader meets them (scripts/phone.mjs:
// 360 x 740 CSS px, touch). What is not time:
// - a finger drags every handle (CDP touch events, as a touch screen sends
//   them), and neither the page scrolls nor the figure's height changes
//   meanwhile; anywhere else a finger scrolls the page, and no figure takes
//   touches for itself beyond a handle;
// - moving a slider changes no figure's height (its words are as tall at
//   every value), so nothing below it moves;
// - a control change writes only what changes: no attribute or text written
//   again to the value it had (each such write restyles or lays out for
//   nothing, on a phone's budget of a frame);
// - every control is a target of 24 x 24 CSS px at least (WCAG 2.2, 2.5.8);
//   the squares of a matrix, a picture's pixels and a sentence's words are
//   the data drawn (the criterion's "essential" exception), each also
//   reachable by keyboard;
// - nothing is shown on hover only: no tooltip (title) but on something a
//   tap or the keyboard shows whole too, no :hover rule that shows anything;
// - the tiny GPT's idle panels say what fills them and how (no "Loading"
//   before anything loads), and a link to a layer and a head shows that
//   head's attention;
// - a page with one figure asks for everything that figure needs within
//   three round trips one after another: the page, the bundle's autoloader,
//   and the rest side by side (scripts/phone.mjs: watchRequests, over a
//   network with a round trip of 100 ms).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, ready, summary, frames, drawAll, ALL_FIGURES } from './harness.js';
import { figurePage } from '../../scripts/figure-page.mjs';
import { PHONE, emulate, touchDrag, watchRequests } from '../../scripts/phone.mjs';
import { FIGURES } from '../../web/figures/registry.js';
import { controlsOf, measure } from '../../bench/lib/changes.mjs';
import { readFile } from 'node:fs/promises';

let server;
let article; // the article at 360 px, every figure drawn: for the tests that move controls and put them back
before(async () => { server = await start(); });
after(async () => {
  await (await article)?.context.close();
  await server?.close();
});

/** The shared article page, drawn on first use; -> {page, context}. */
function drawnArticle() {
  article ??= (async () => {
    const context = await server.browser.newContext(PHONE);
    const page = await context.newPage();
    await everyFigureDrawn(page);
    return { page, context };
  })();
  return article;
}

/** A one-figure page (scripts/figure-page.mjs) on a phone, `below` px of page under the figure to scroll; -> {page, cdp, problems, context}. */
async function phonePage(tag, { hash = '', below = 1500, network = null, init = null } = {}) {
  const context = await server.browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  const path = `/web/embed/${tag}.html`;
  await server.fake(page, path, figurePage(tag).replace('</main>', `<div style="height:${below}px"></div></main>`));
  await page.addInitScript(noteReady);
  if (init) await page.addInitScript(init);
  const cdp = await emulate(page, { network });
  const chain = watchRequests(cdp);
  await page.goto(`${server.origin}${path}${hash}`);
  return { page, cdp, chain, problems, context };
}

// Runs in the page before its scripts: when each figure first has data-ready (performance.now()).
function noteReady() {
  window.__ready = {};
  new MutationObserver((records) => {
    for (const r of records) if (r.target.hasAttribute('data-ready')) window.__ready[r.target.localName] ??= performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
}

// Runs in the page: the handles of `tag`'s figure (what takes a touch for
// itself: touch-action none), each with its centre and the picture it moves
// over (its SVG), in viewport px, that picture scrolled to the middle.
function handlesOf(tag) {
  const root = document.querySelector(tag).shadowRoot;
  return [...root.querySelectorAll('*')].filter((e) => getComputedStyle(e).touchAction === 'none' && e.checkVisibility()).map((h) => {
    const over = h.closest('svg') ?? h.parentElement;
    over.scrollIntoView({ block: 'center' });
    const [a, b] = [h.getBoundingClientRect(), over.getBoundingClientRect()];
    return { at: [a.left + a.width / 2, a.top + a.height / 2], size: [a.width, a.height], over: [b.left, b.top, b.width, b.height] };
  });
}

/** The article in `page`, once every figure has drawn. */
async function everyFigureDrawn(page) {
  await page.goto(`${server.origin}/web/index.html`);
  await drawAll(page);
}

// the article on a phone: each figure, as a reader scrolls to it
test('360 px, touch: a finger drags every handle without scrolling the page, anywhere else on a figure it scrolls the page; every control is a 24 px target; nothing shows on hover only', async () => {
  const context = await server.browser.newContext(PHONE);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  try {
    const cdp = await emulate(page);
    await everyFigureDrawn(page);
    let handles = 0;
    for (const tag of ALL_FIGURES) {
      const el = await ready(page, tag);
      for (const h of await page.evaluate(handlesOf, tag)) {
        handles++;
        // a handle is a handle, not a region that keeps the page from scrolling
        assert.ok(h.size[0] <= 48 && h.size[1] <= 48, `${tag}: an element of ${h.size.map(Math.round).join(' x ')} px takes touches for itself`);
        await frames(page); // (the compositor has the page as it is now: where touches scroll and where they do not)
        await still(page); // (a fling from the last swipe has stopped)
        const [y0, s0] = [await page.evaluate(() => scrollY), await summary(el)];
        const heights = await watchHeight(el);
        const [x, y] = h.at;
        // (down and right, then up past where it began: a value's sign, and so its length, changes on the way)
        const path = [[x, y], [x + 15, y + 10], [x + 30, y + 25], [x + 45, y + 40], [x + 30, y], [x + 15, y - 40]];
        await touchDrag(cdp, path);
        // (a page busy with the other figures may take a few frames to handle the touches)
        const moved = await el.evaluate((e, s) => new Promise((resolve) => {
          const t0 = performance.now();
          const check = () => (e.summary !== s ? resolve(true) : performance.now() - t0 > 3000 ? resolve(false) : requestAnimationFrame(check));
          check();
        }), s0);
        await frames(page);
        assert.ok(moved, `${tag}: dragging its handle by touch changed nothing`);
        assert.equal(await page.evaluate(() => scrollY), y0, `${tag}: dragging its handle scrolled the page`);
        // (a figure that grew or shrank would move what is under the finger, and the page with it)
        assert.deepEqual(await heights.evaluate((w) => w.stop()), [], `${tag}: dragging its handle changed the figure's height`);
        // a finger on the same picture away from the handle scrolls the page, and moves nothing
        const [left, top, width, height] = h.over;
        const far = [[left + 12, top + height - 12], [left + width - 12, top + height - 12]]
          .sort((a, b) => Math.hypot(b[0] - path.at(-1)[0], b[1] - path.at(-1)[1]) - Math.hypot(a[0] - path.at(-1)[0], a[1] - path.at(-1)[1]))[0];
        const s1 = await summary(el);
        await swipeUp(page, cdp, far, `${tag}: a finger on its picture, away from the handle`);
        assert.equal(await summary(el), s1, `${tag}: scrolling the page over it moved its handle`);
      }
      // a finger on the middle of the figure scrolls the page
      const middle = await el.evaluate((e) => {
        e.scrollIntoView({ block: 'start' });
        const r = e.getBoundingClientRect();
        return [r.left + r.width / 2, Math.min(r.bottom, innerHeight) / 2 + 100];
      });
      await swipeUp(page, cdp, middle, `${tag}: a finger on the figure`);
    }
    assert.ok(handles >= 1, 'the soft dictionary\'s query is a handle');
    // every figure drawn: its targets and what it shows under a mouse
    assert.deepEqual(await page.evaluate(smallTargets), []);
    assert.deepEqual(await page.evaluate(hoverOnly), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// Runs in the page: every slider of each figure of `tags` moved across its
// range; -> [tag, slider, heights] where the figure's height changed.
async function slidersMoveNothingBelow(tags) {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const changed = [];
  for (const tag of tags) {
    const e = document.querySelector(tag);
    for (const r of [...e.shadowRoot.querySelectorAll('input[type=range]')].filter((c) => !c.closest('.tools') && c.checkVisibility())) {
      const [v0, min, max, step] = [r.value, Number(r.min), Number(r.max), Number(r.step) || 0];
      const heights = new Set();
      for (let i = 0; i <= 16; i++) {
        const v = min + ((max - min) * i) / 16;
        r.value = String(step ? min + Math.round((v - min) / step) * step : v);
        r.dispatchEvent(new Event('input', { bubbles: true }));
        await frame();
        heights.add(Math.round(e.getBoundingClientRect().height * 10) / 10);
      }
      r.value = v0;
      r.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      if (heights.size > 1) changed.push([tag, r.closest('.slider')?.querySelector('label')?.textContent, [...heights]]);
    }
  }
  return changed;
}

// (a measuring figure's table grows as it measures: what its sliders start)
test('360 px: moving any slider across its range changes no figure\'s height, so nothing below it moves under a reader\'s eyes', async () => {
  const tags = FIGURES.filter((f) => f.worker !== 'measures').map((f) => f.tag);
  const { page } = await drawnArticle();
  assert.deepEqual(await page.evaluate(slidersMoveNothingBelow, tags), []);
});

// Runs in the page: from now on, every attribute or text in `tag`'s figure
// written to the value it had (the value after a write: the next write's old
// value, or the present one); window.__writes.stop() -> ["element[attribute]", ...].
function watchWrites(tag) {
  const root = document.querySelector(tag).shadowRoot;
  const same = [];
  const note = (records) => {
    records.forEach((r, i) => {
      if (r.type === 'childList') return;
      const later = records.slice(i + 1).find((o) => o.target === r.target && o.type === r.type && o.attributeName === r.attributeName);
      const now = later ? later.oldValue : r.type === 'attributes' ? r.target.getAttribute(r.attributeName) : r.target.data;
      if (now !== r.oldValue) return;
      const el = r.type === 'attributes' ? r.target : r.target.parentElement;
      same.push(`${el?.localName}${el?.classList.length ? `.${el.classList[0]}` : ''}${r.type === 'attributes' ? `[${r.attributeName}]` : ' text'}`);
    });
  };
  const watch = new MutationObserver(note);
  watch.observe(root, { subtree: true, attributes: true, attributeOldValue: true, characterData: true, characterDataOldValue: true });
  window.__writes = { stop: () => { note(watch.takeRecords()); watch.disconnect(); return same; } };
}

test('360 px: a change of any control (slider, choice, switch, stepper, a picked cell) writes only what changes', async () => {
  const { page } = await drawnArticle();
  const wasted = [];
  for (const tag of ALL_FIGURES) {
    for (const kind of Object.keys(await page.evaluate(controlsOf, tag)).filter((k) => k !== 'drag')) {
      await page.evaluate(watchWrites, tag);
      await page.evaluate(measure, [tag, kind, 4]);
      wasted.push(...(await page.evaluate(() => window.__writes.stop())).map((w) => `${tag}, ${kind}: ${w}`));
    }
  }
  assert.deepEqual([...new Set(wasted)], []);
});

/** A finger from `at` up by 120 px: the page must scroll by 40 px at least (`what` names the place); -> once it stopped. */
async function swipeUp(page, cdp, at, what) {
  const y0 = await page.evaluate(() => scrollY);
  await touchDrag(cdp, [at, [at[0] + 1, at[1] - 40], [at[0] + 2, at[1] - 80], [at[0] + 2, at[1] - 120]]);
  await page.waitForFunction((y) => scrollY > y + 40, y0, { timeout: 5000 }).catch(() => {});
  assert.ok(await page.evaluate(() => scrollY) > y0 + 40, `${what} did not scroll the page`);
  await still(page);
}

/** Every height `el` takes from now on other than its present one, in CSS px (a ResizeObserver's); -> a handle to {stop() -> heights}. */
const watchHeight = (el) => el.evaluateHandle((e) => {
  const [start, seen] = [e.getBoundingClientRect().height, []];
  const watch = new ResizeObserver(([r]) => { const h = r.borderBoxSize[0].blockSize; if (h !== start && !seen.includes(h)) seen.push(h); });
  watch.observe(e);
  return { stop: () => (watch.disconnect(), seen) };
});

/** Until the page has not scrolled for 10 frames (a swipe ends in a fling that scrolls on for a while), 5 s at most. */
async function still(page) {
  await page.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    let [y, same] = [scrollY, 0];
    const check = () => {
      same = scrollY === y ? same + 1 : 0;
      y = scrollY;
      if (same >= 10 || performance.now() - t0 > 5000) resolve();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  }));
}

test('a tap on the soft dictionary\'s plane puts the query there', async () => {
  const tag = 'attention-soft-dictionary';
  const { page, cdp, problems, context } = await phonePage(tag);
  try {
    await ready(page, tag);
    const [h] = await page.evaluate(handlesOf, tag);
    const [left, top, width, height] = h.over;
    // the key "lemon" at (0.55, 0.6) of the plane (a 300-unit square, 118 units to 1, 0 in the middle): the query snaps onto it
    await touchDrag(cdp, [[left + (width * (150 + 0.55 * 118)) / 300, top + (height * (150 - 0.6 * 118)) / 300]]);
    await page.waitForFunction((t) => document.querySelector(t).query === '0.55,0.6', tag, { timeout: 5000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// Runs in the page: every figure's targets smaller than 24 x 24 CSS px, with
// what they are; a control's label is its target. Left out: the squares of
// a matrix view (one focusable grid, each cell also reached by arrow keys),
// the matrix figure's picture (its pixels, the same cells as its heat map)
// and the cross figure's sentence (its words, the rows of its matrix).
function smallTargets() {
  const out = [];
  for (const el of document.querySelectorAll('*')) {
    if (!el.localName.startsWith('attention-')) continue;
    const root = el.shadowRoot;
    const data = (t) => t.closest('.mat, svg.img, svg.lines');
    const targets = [...root.querySelectorAll('button, input, select, textarea, a[href], summary, [role=button], [role=radio], [role=slider], [role=switch], [tabindex="0"]')]
      .filter((t) => t.checkVisibility() && !data(t));
    for (const t of targets) {
      const r = (t.localName === 'input' && t.closest('label') ? t.closest('label') : t).getBoundingClientRect();
      if (r.width < 24 || r.height < 24) out.push(`${el.localName}: ${t.localName}${t.className?.baseVal ?? t.className ? `.${t.className?.baseVal ?? t.className}` : ''} "${(t.getAttribute('aria-label') ?? t.textContent).trim().slice(0, 30)}" ${r.width.toFixed(1)} x ${r.height.toFixed(1)}`);
    }
  }
  return out;
}

// Runs in the page: what a figure shows only under a mouse: a title (a
// tooltip) on something a tap or the keyboard does not reach, or a :hover
// rule that shows something (display, visibility, opacity, content, size).
function hoverOnly() {
  const out = [];
  const reached = (n) => n.closest('button, a[href], [tabindex], [role=button], [role=radio], [role=slider]');
  for (const el of document.querySelectorAll('*')) {
    if (!el.localName.startsWith('attention-')) continue;
    const root = el.shadowRoot;
    for (const n of root.querySelectorAll('[title]')) out.push(`${el.localName}: title="${n.getAttribute('title')}" on ${n.localName}`);
    for (const t of root.querySelectorAll('svg title')) if (!reached(t.parentElement)) out.push(`${el.localName}: an SVG tooltip "${t.textContent}" on ${t.parentElement.localName}, which no tap or key reaches`);
    for (const sheet of root.adoptedStyleSheets) {
      for (const rule of sheet.cssRules) {
        if (!rule.selectorText?.includes(':hover')) continue;
        const shows = ['display', 'visibility', 'opacity', 'content', 'height', 'max-height', 'width'].filter((p) => rule.style.getPropertyValue(p));
        if (shows.length) out.push(`${el.localName}: ${rule.selectorText} sets ${shows.join(', ')}`);
      }
    }
  }
  return out;
}

// the tiny GPT's panels, as a reader reads them
const panels = (el) => el.evaluate((e) => ({
  decodings: e.shadowRoot.querySelector('.decodings').textContent,
  attention: e.shadowRoot.querySelector('.attend').textContent,
  chars: e.shadowRoot.querySelectorAll('.chars button').length,
  map: !e.shadowRoot.querySelector('canvas.matrix').hidden,
  readout: e.shadowRoot.querySelector('.readout').textContent,
  worker: !!e.worker,
}));

test('the tiny GPT idle says what fills its panels; a link to layer 2, head 3 shows that head', async () => {
  const tag = 'attention-tiny-gpt';
  const idle = await phonePage(tag);
  try {
    const el = await ready(idle.page, tag);
    const p = await panels(el);
    assert.equal(p.worker, false, 'nothing loads before the reader asks');
    assert.doesNotMatch(`${p.decodings} ${p.attention}`, /Loading/);
    assert.match(p.decodings, /Press Write to see the untrained model continue the prompt/);
    assert.match(p.attention, /Press Start training or type some text to see where each head looks/);
    assert.deepEqual(idle.problems, []);
  } finally {
    await idle.context.close();
  }
  const linked = await phonePage(tag, { hash: '#tiny-gpt.layer=2&tiny-gpt.head=3' });
  try {
    const el = await ready(linked.page, tag);
    await linked.page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelectorAll('.chars button').length > 0, tag, { timeout: 60000 });
    await frames(linked.page);
    const p = await panels(el);
    assert.ok(p.chars > 0 && p.map, 'the heads view shows the model\'s attention');
    assert.match(p.readout, /^Layer 2, head 3: reading/);
    assert.deepEqual(await el.evaluate((e) => [e.layer, e.head]), ['2', '3']);
    assert.deepEqual(linked.problems, []);
  } finally {
    await linked.context.close();
  }
});

// three kinds of figure: one with formulas and a page's example, one that
// measures (its words import the measuring figures' shared ones), one that
// trains in a worker (loaded as it nears the viewport)
test('a one-figure page asks for everything its figure needs within three round trips', async () => {
  for (const tag of ['attention-soft-dictionary', 'attention-cost', 'attention-tiny-gpt']) {
    const { page, chain, problems, context } = await phonePage(tag, { below: 0, network: 'latency' });
    try {
      await ready(page, tag);
      const until = await page.evaluate((t) => performance.timeOrigin + window.__ready[t], tag); // (a measuring figure starts its worker after)
      const steps = chain.chain(until);
      const depth = chain.depth(until);
      assert.ok(depth <= 3, `${tag}: ${depth} round trips one after another:\n${steps.map(([u, d]) => `  ${d} ${u.replace(server.origin, '')}`).join('\n')}`);
      assert.ok(steps.some(([u]) => u.endsWith('.wasm')) && steps.some(([u]) => /strings\.en/.test(u)), `${tag}: the engine and the words are among them`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

// A heavy figure (it measures or trains in a worker) waits to be asked for
// until a reader nears it; one already in view when the autoloader scans the
// page is asked for then, not a frame later when an IntersectionObserver
// would first say so (here, one that never does).
test('a heavy figure in view is asked for as the autoloader scans the page, not when an observer says so', async () => {
  const silent = () => {
    window.IntersectionObserver = class { observe() {} unobserve() {} disconnect() {} takeRecords() { return []; } };
  };
  for (const { tag, name } of FIGURES.filter((f) => f.worker)) {
    const { page, problems, context } = await phonePage(tag, { below: 0, init: silent });
    try {
      await page.waitForFunction((file) => performance.getEntriesByType('resource').some((r) => r.name.endsWith(file)), `/dist/figures/${name}.js`, { timeout: 30_000 });
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

// The same for every figure, from the bundle itself: what the autoloader asks
// for ahead (its manifest) holds every module that the figure's module, its
// words and the shared words import, so none is found only once another has arrived.
// On the article (on a desktop: its first figure in view), the figures near
// the top are asked for first and the rest (which would share a slow network
// with them) once those have drawn, with no scroll needed; the heavy ones
// (workers) only as a reader nears them.
test('the article asks for its first figures, and for the others once those have drawn', async () => {
  const context = await server.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  try {
    await page.addInitScript(noteReady);
    const chain = watchRequests(await emulate(page, {}));
    await page.goto(`${server.origin}/web/index.html`);
    const light = FIGURES.filter((f) => !f.worker);
    await page.waitForFunction((tags) => tags.every((t) => customElements.get(t)), light.map((f) => f.tag), { timeout: 60_000 });
    const first = await page.evaluate(() => performance.timeOrigin + Math.min(...Object.values(window.__ready)));
    const sent = (name) => chain.requests.find((r) => r.url.endsWith(`/dist/figures/${name}.js`))?.sent;
    assert.ok(sent(light[0].name) < first, `${light[0].name}, at the top, asked for before the first drawing`);
    assert.ok(sent(light.at(-1).name) > first, `${light.at(-1).name}, at the end, asked for after the first drawing`);
    for (const f of FIGURES.filter((x) => x.worker)) assert.equal(sent(f.name), undefined, `${f.name} (it runs a worker): not before the reader nears it`);
  } finally {
    await context.close();
  }
});

// On HTTP/1.1 a browser asks a host for six files at a time: a figure whose
// files (modules, words, the .wasm) are six or fewer gets them in one round
// trip after the autoloader, each file more costs about another (the bundle
// keeps what every figure imports in one chunk: scripts/bundle.mjs). The two
// measuring figures also load their shared measuring code and its words.
test('a figure asks for at most six files after the autoloader (eight for a measuring one)', async () => {
  const listed = JSON.parse(await readFile(new URL('../../build/preload-manifest.json', import.meta.url), 'utf8'));
  for (const { name, worker } of FIGURES) {
    const files = new Set([...listed.figures[name], ...listed.words[name].en, ...listed.shared.en, listed.wasm.relaxed]);
    assert.ok(files.size <= (worker === 'measures' ? 8 : 6), `${name}: ${files.size} files: ${[...files].join(', ')}`);
  }
});

test('the autoloader asks ahead for every module each figure imports', async () => {
  const dist = new URL('../../dist/', import.meta.url);
  const listed = JSON.parse(await readFile(new URL('../../build/preload-manifest.json', import.meta.url), 'utf8')); // (scripts/bundle.mjs)
  const imports = async (file) => [...(await readFile(new URL(file, dist), 'utf8')).matchAll(/(?:import|from)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)]
    .map((m) => new URL(m[1], new URL(file, dist)).href.slice(dist.href.length));
  for (const { name } of FIGURES) {
    for (const lang of ['en', 'zh']) {
      const files = new Set([...listed.figures[name], ...listed.words[name][lang], ...listed.shared[lang]]);
      for (const file of files) {
        for (const dep of await imports(file)) assert.ok(files.has(dep), `${name} (${lang}): ${file} imports ${dep}, which the autoloader does not ask for ahead`);
      }
    }
  }
});
