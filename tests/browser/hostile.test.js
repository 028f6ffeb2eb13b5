// hostile.test.js: the figures on hostile ground (issue 5, the web side).
//   (a) text a reader types or a page supplies is shown as text, never markup;
//   (b) every page works under the strict CSP without a single violation;
//   (c) no request leaves the page's origin;
//   (d) a .wasm that cannot load (404, wrong type, corrupted, no WebAssembly)
//       gives each figure a clear message and leaves the rest of the page working;
//   (e) two copies of the bundle on one page do not clash.
// The server sends the strict CSP with every response; the pages made here
// (routed, not files) carry it too, except the XSS page, which goes without
// so that markup slipping through would really run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { start, ready, frames, SCREENSHOTS } from './harness.js';
import { FIGURES, TAGS } from '../../web/figures/registry.js';
import { STRICT_CSP } from '../../scripts/serve.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(2)</script>',
  '<svg onload=alert(3)>',
  '"><iframe src=javascript:alert(4)>',
];

// Runs in the page before anything else: records CSP violations and every
// custom element definition.
function watch() {
  window.__hostile = { violations: [], defines: [] };
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__hostile.violations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
  }, true);
  const define = customElements.define.bind(customElements);
  customElements.define = (name, ...rest) => {
    window.__hostile.defines.push(name);
    return define(name, ...rest);
  };
}

// Runs in the page: elements that markup would have made, in the document and in every shadow root.
function markupFound() {
  const found = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const pageScript = el.localName === 'script' && root === document && el.parentNode === document.head;
      if (['img', 'iframe', 'object', 'embed'].includes(el.localName) || (el.localName === 'script' && !pageScript)) found.push(`<${el.localName}>`);
      for (const a of el.attributes) {
        if (/^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)) found.push(`<${el.localName} ${a.name}="${a.value}">`);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return found;
}

/** A page of figures, its script a file (no inline script, as the CSP requires). */
function pageHtml({ tags, bundles = ['../../dist/attention-figures.js'], attrs = {} }) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hostile</title><link rel="icon" href="../favicon.svg">
${bundles.map((b) => `<script type="module" src="${b}"></script>`).join('\n')}
<script type="module" src="hostile-page.js"></script>
</head><body>
<h1 id="title">A post that must survive its figures</h1>
<p id="formula" data-tex="\\mathrm{softmax}(QK^T/\\sqrt{d_k})\\,V"></p>
${tags.map((t) => `<${t} ${attrs[t] ?? ''}><p>Fallback for ${t} (needs JavaScript).</p></${t}>`).join('\n')}
<p id="end">The end of the post.</p>
</body></html>`;
}

// The page's own script: typesets the page's formula and records that it ran (the page still works).
const PAGE_JS = `import { typeset } from '../../dist/attention-figures.js';
typeset(document);
document.body.dataset.pageScript = 'ran';`;

let server;
before(async () => { server = await start({ csp: true }); });
after(async () => { await server?.close(); });

/** Serve a made-up page at /web/embed/hostile.html (with its script), with or without the CSP header. */
async function routePage(page, html, { csp = true } = {}) {
  await server.fake(page, '/web/embed/hostile.html', html, { csp });
  await server.fake(page, '/web/embed/hostile-page.js', PAGE_JS, { csp });
}

// attention-cost and attention-efficient measure in a worker: keep their sweeps small.
const ATTRS = { 'attention-cost': 'n="1024" budget="5"', 'attention-efficient': 'n="2048" budget="5"', 'attention-heatmap': 'src="hostile-weights.json"' };

/** Scroll to a figure until it starts; -> {ready, text} (its shadow text). */
async function settle(page, tag) {
  const el = page.locator(tag).first();
  for (let attempt = 0; ; attempt++) {
    await el.scrollIntoViewIfNeeded();
    try {
      await page.waitForFunction((t) => {
        const e = document.querySelector(t);
        return e.hasAttribute('data-ready') || e.hasAttribute('data-error');
      }, tag, { timeout: 2000 });
      break;
    } catch (err) {
      if (attempt === 5) throw new Error(`${tag} never started: ${err.message}`);
    }
  }
  return el.evaluate((e) => ({ ready: e.hasAttribute('data-ready'), text: e.shadowRoot.textContent }));
}

const violations = (page) => page.evaluate(() => window.__hostile.violations);

test('(a) reader text and tokens are rendered as text only', async () => {
  const weights = (n, m) => Array.from({ length: n }, () => Array(m).fill(1 / m));
  const json = JSON.stringify({ tokens: PAYLOADS, keyTokens: [...PAYLOADS].reverse(), attention: weights(4, 4) });
  const dialogs = [];
  const { page, problems, requests, foreign, context } = await server.open('/web/embed/hostile.html', {
    prepare: async (p) => {
      p.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
      await p.addInitScript(watch);
      await routePage(p, pageHtml({ tags: TAGS, attrs: ATTRS }), { csp: false });
      await server.fake(p, '/web/embed/hostile-weights.json', json);
    },
  });
  const heatmap = page.locator('attention-heatmap');
  await ready(page, 'attention-heatmap');
  // A label shows a long token cut short, with the whole token in its <title>
  // tooltip: read the tooltip where there is one, the label's text otherwise.
  const labels = () => heatmap.evaluate((e) => [...e.shadowRoot.querySelectorAll('svg.headview text')]
    .map((t) => t.querySelector('title')?.textContent ?? t.textContent));
  const showsTokens = async (how) => {
    await frames(page);
    const texts = await labels();
    for (const p of PAYLOADS) assert.equal(texts.filter((t) => t === p).length, 2, `${how}: ${p} shown once as a query and once as a key, literally`);
  };

  // tokens from the src attribute (fetched JSON), the data property (object and JSON text), the textarea and a file
  await page.waitForFunction(() => document.querySelector('attention-heatmap').shadowRoot.querySelector('svg.headview text')?.textContent.startsWith('<'));
  await showsTokens('src="…json"');
  await heatmap.evaluate((e, j) => { const o = JSON.parse(j); e.data = { ...o, tokens: o.keyTokens, keyTokens: o.tokens }; }, json);
  await showsTokens('data = object');
  await heatmap.evaluate((e, j) => { e.data = j; }, json);
  await showsTokens('data = JSON text');
  await heatmap.locator('summary').click();
  await heatmap.locator('textarea').fill(json);
  await heatmap.getByRole('button', { name: 'Show', exact: true }).click();
  await showsTokens('pasted JSON');
  await heatmap.locator('input[type=file]').setInputFiles({ name: `${PAYLOADS[2]}.json`, mimeType: 'application/json', buffer: Buffer.from(json) });
  await showsTokens('a file');
  assert.ok((await heatmap.evaluate((e) => e.shadowRoot.textContent)).includes(`Showing ${PAYLOADS[2]}.json:`), 'the file name is shown literally');
  // a query token chosen: its text goes into the summary and the live region
  await heatmap.evaluate((e) => { e.token = 0; });
  await frames(page);
  assert.ok((await heatmap.evaluate((e) => e.summary)).includes(`"${PAYLOADS[0]}"`));
  // markup pasted where JSON belongs: a message, the text in it literal
  for (const p of PAYLOADS) {
    await heatmap.locator('textarea').fill(p);
    await heatmap.getByRole('button', { name: 'Show', exact: true }).click();
    await frames(page);
    const alert = await heatmap.getByRole('alert').textContent();
    assert.match(alert, /Could not show pasted JSON: This is not valid JSON/, p);
  }

  // every string attribute of every figure set to markup: figures keep working, nothing is made of it
  for (const tag of TAGS) await ready(page, tag);
  const set = await page.evaluate(({ tags, payload }) => {
    const done = [];
    for (const tag of tags) {
      const props = customElements.get(tag).props ?? {};
      for (const [name, p] of Object.entries(props)) {
        if (p.type !== 'string' || (tag === 'attention-heatmap' && name === 'src')) continue;
        document.querySelector(tag).setAttribute(name, payload);
        done.push(`${tag}[${name}]`);
      }
    }
    return done;
  }, { tags: TAGS, payload: PAYLOADS[0] });
  assert.ok(set.length >= 5, `string attributes found: ${set}`);
  await heatmap.evaluate((e, p) => { e.src = p; }, PAYLOADS[1]); // a src that is markup: fetched as a (missing) same-origin file
  await page.waitForFunction(() => /Could not load/.test(document.querySelector('attention-heatmap').shadowRoot.textContent));
  assert.ok((await heatmap.getByRole('alert').textContent()).includes(`Could not load ${PAYLOADS[1]}: HTTP 404`));
  await frames(page);
  await page.waitForTimeout(100);
  for (const tag of TAGS) {
    assert.ok(await page.locator(tag).evaluate((e) => e.hasAttribute('data-ready') && !e.hasAttribute('data-error')), `${tag} still works`);
  }

  assert.deepEqual(await page.evaluate(markupFound), [], 'no element or handler made from reader text');
  assert.deepEqual(dialogs, [], 'no dialog');
  assert.deepEqual(requests.filter((u) => /\/x$|javascript:/.test(u)), [], 'no request made by injected markup');
  const missing = `HTTP 404: ${server.origin}/web/embed/${encodeURIComponent(PAYLOADS[1]).replace(/%2F/g, '/')}`;
  assert.deepEqual(problems.filter((p) => !p.startsWith(missing) && !/Failed to load resource: .*404/.test(p)), []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('(b, c) every page works under the strict CSP: no violation, no error, no request off the origin', async () => {
  const weights = JSON.stringify({ tokens: ['a', 'b'], attention: [[0.5, 0.5], [0.25, 0.75]] });
  const pages = ['/web/index.html', '/web/embed/example.html', '/web/embed/csp-test.html', '/web/embed/hostile.html'];
  for (const path of pages) {
    const { page, problems, foreign, context } = await server.open(path, {
      prepare: async (p) => {
        await p.addInitScript(watch);
        await routePage(p, pageHtml({ tags: TAGS, attrs: ATTRS }));
        await server.fake(p, '/web/embed/hostile-weights.json', weights);
      },
    });
    const csp = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
    assert.equal(csp, STRICT_CSP, `${path} is served with the strict CSP`);
    const tags = await page.evaluate(() => [...new Set([...document.querySelectorAll('*')].map((e) => e.localName).filter((n) => n.startsWith('attention-')))]);
    assert.ok(tags.length >= (path.includes('hostile') ? TAGS.length : 2), `${path}: ${tags}`);
    for (const tag of tags) {
      const r = await settle(page, tag);
      assert.ok(r.ready, `${path}: ${tag} failed: ${r.text}`);
    }
    if (path.includes('hostile')) {
      // the heatmap's JSON came through fetch (connect-src), the cost figure's worker started (worker-src)
      await page.waitForFunction(() => document.querySelector('attention-heatmap').shadowRoot.textContent.includes('Showing hostile-weights.json'));
      await page.waitForFunction(() => /Measuring|Done/.test(document.querySelector('attention-cost').shadowRoot.textContent));
      assert.equal(await page.locator('body').getAttribute('data-page-script'), 'ran');
    }
    await frames(page);
    assert.deepEqual(await violations(page), [], `${path}: CSP violations`);
    assert.deepEqual(problems, [], `${path}: console errors`);
    assert.deepEqual(foreign(), [], `${path}: requests off the origin`);
    await context.close();
  }
});

test('(b) the shipped scripts contain no eval, no Function constructor, no string timers, no document.write', async () => {
  const api = (await readdir(ROOT + 'web/api')).map((f) => `web/api/${f}`);
  // every script in dist/: the autoloader, each figure, its worker, the shared chunks (KaTeX's too)
  const dist = (await readdir(ROOT + 'dist', { recursive: true })).filter((f) => f.endsWith('.js')).map((f) => `dist/${f}`);
  assert.ok(dist.length > FIGURES.length, `${dist.length} scripts in dist/`);
  const files = [...dist, 'web/attention.js', ...api];
  const banned = /(?<![\w$.])eval\(|(?<![\w$.])(new\s+)?Function\(|set(Timeout|Interval)\(\s*['"`]|document\.write/;
  for (const f of files) {
    const m = (await readFile(ROOT + f, 'utf8')).match(banned);
    assert.equal(m, null, `${f}: ${m?.[0]}`);
  }
});

// Ways the .wasm can fail to arrive. `works`: the figures must still draw.
const WASM_CASES = [
  { name: '404', route: (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }), message: /could not load .*attention-only(\.relaxed|\.simd)?\.wasm \(HTTP 404\)/ },
  { name: 'network error', route: (r) => r.abort('failed'), message: /could not load .*attention-only(\.relaxed|\.simd)?\.wasm \(/ },
  { name: 'an HTML page with status 200', route: (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><p>Page not found</p>' }), message: /attention-only(\.relaxed|\.simd)?\.wasm is not a valid WebAssembly module/ },
  { name: 'corrupted bytes', corrupt: (b) => { for (let i = 64; i < b.length; i += 7) b[i] ^= 0x5a; return b; }, message: /is not a valid WebAssembly module/ },
  { name: 'truncated', corrupt: (b) => b.subarray(0, b.length >> 1), message: /is not a valid WebAssembly module/ },
  { name: 'no WebAssembly in the engine', init: () => { delete globalThis.WebAssembly; }, message: /this browser has no WebAssembly/ },
  { name: 'served as text/plain', type: 'text/plain', works: true },
  { name: 'served as application/octet-stream', type: 'application/octet-stream', works: true },
];

for (const c of WASM_CASES) {
  test(`(d) wasm ${c.name}: ${c.works ? 'the figures still work' : 'each figure says so, the page keeps working'}`, async () => {
    const { page, problems, foreign, context } = await server.open('/web/embed/hostile.html', {
      prepare: async (p) => {
        await p.addInitScript(watch);
        if (c.init) await p.addInitScript(c.init);
        await routePage(p, pageHtml({ tags: TAGS, attrs: { 'attention-cost': ATTRS['attention-cost'] } }));
        await p.route(/\.wasm$/, async (r) => {
          if (c.route) return c.route(r);
          // (a .wasm still under way when the test ends, the cost figure's worker's, fails
          // with the page or the server: nothing to answer then; one that fails during the
          // test leaves its figure without an engine, which the assertions below catch)
          const res = await r.fetch().catch(() => null);
          const body = res && await res.body().then((b) => Buffer.from(b), () => null);
          if (!body) return;
          await r.fulfill({ response: res, body: c.corrupt ? c.corrupt(body) : body, contentType: c.type ?? 'application/wasm' }).catch(() => {});
        });
      },
    });
    for (const tag of TAGS) {
      const r = await settle(page, tag);
      if (c.works) {
        assert.ok(r.ready, `${tag}: ${r.text}`);
      } else {
        assert.ok(!r.ready, `${tag} claims to be ready`);
        assert.match(r.text, /This figure could not start/, tag);
        assert.match(r.text, c.message, tag);
        assert.ok(await page.locator(tag).getByRole('alert').isVisible(), `${tag}: the message is visible`);
      }
    }
    // the rest of the page: its text, its own script, its typeset formula
    assert.ok(await page.locator('#title').isVisible());
    assert.ok(await page.locator('#end').isVisible());
    assert.equal(await page.locator('body').getAttribute('data-page-script'), 'ran');
    assert.ok(await page.locator('#formula math').count() === 1, 'the page\u2019s formula is typeset');
    if (!c.works && c.name === '404') await page.screenshot({ path: `${SCREENSHOTS}wasm-missing.png`, fullPage: true });
    const expected = (p) => /\.wasm/.test(p) || /Failed to load resource/.test(p);
    assert.deepEqual(problems.filter((p) => c.works || !expected(p)), [], 'no uncaught exception or other error');
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(foreign(), []);
    await page.unrouteAll({ behavior: 'ignoreErrors' }); // (a .wasm still under way, the worker's, ends with the page)
    await context.close();
  });
}

test('(e) two copies of the bundle on one page: each tag defined once, one engine, figures draw', async () => {
  const { page, problems, requests, foreign, context } = await server.open('/web/embed/hostile.html', {
    prepare: async (p) => {
      await p.addInitScript(watch);
      await routePage(p, pageHtml({ tags: TAGS, bundles: ['../../dist/attention-figures.js', '/copy2/attention-figures.js'], attrs: { 'attention-cost': ATTRS['attention-cost'] } }));
      // a second copy of dist/ under another folder (as a second CDN path would be)
      await p.route(/\/copy[23]\//, (r) => r.fulfill({ path: `${ROOT}dist/${new URL(r.request().url()).pathname.replace(/^\/copy[23]\//, '')}`, headers: { 'content-security-policy': STRICT_CSP } }));
    },
  });
  for (const tag of TAGS) {
    const r = await settle(page, tag);
    assert.ok(r.ready, `${tag}: ${r.text}`);
  }
  // a third copy imported later, then a new figure added: upgraded by the first definition, same engine
  await page.evaluate(() => import('/copy3/attention-figures.js'));
  const late = await page.evaluate(async () => {
    const el = document.createElement('attention-soft-dictionary');
    document.body.append(el);
    el.scrollIntoView();
    await el.ready;
    const first = document.querySelector('attention-soft-dictionary');
    return { ready: el.hasAttribute('data-ready'), sameClass: el.constructor === first.constructor, sameEngine: el.attn === first.attn };
  });
  assert.deepEqual(late, { ready: true, sameClass: true, sameEngine: true });
  // the second copy did run, and hands out the same engine
  assert.ok(await page.evaluate(async () => (await (await import('/copy2/attention-figures.js')).engine()) === document.querySelector('attention-notation').attn));
  assert.ok(requests.some((u) => u.endsWith('/copy2/attention-figures.js')) && requests.some((u) => u.endsWith('/copy3/attention-figures.js')), 'all three copies loaded');
  const defines = await page.evaluate(() => window.__hostile.defines);
  assert.deepEqual([...defines].sort(), [...TAGS].sort(), 'each figure tag defined exactly once');
  const engines = await page.evaluate((tags) => new Set(tags.map((t) => document.querySelector(t).attn)).size, TAGS);
  assert.equal(engines, 1, 'one shared engine');
  // one download of each .wasm for the page, from whichever copy started first: the attention part
  // in the build the figures use, and its scalar build, which the cost figure's worker also times
  await page.waitForFunction(() => document.querySelector('attention-cost').sweep?.phase === 'done', null, { timeout: 60000 });
  const wasm = requests.filter((u) => u.endsWith('.wasm')).map((u) => u.replace(/.*\//, '')).sort();
  assert.deepEqual(wasm, ['attention-only.relaxed.wasm', 'attention-only.wasm'], `one download of each: ${wasm}`);
  // Chromium (>= 114) validates relaxed SIMD: the figures use that build.
  assert.equal(await page.evaluate(() => document.querySelector('attention-notation').attn.build), 'relaxed');
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});
