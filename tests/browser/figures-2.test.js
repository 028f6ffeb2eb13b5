// The second set of figures on the article page in headless Chromium: each
// draws from the kernels and reacts to its controls without console errors
// or foreign requests; the heatmap survives hostile and malformed input; the
// cost sweep runs in its worker under the strict CSP; copy-link and the
// SVG/PNG downloads work. Screenshots go to tests/artifacts/screenshots/,
// the cost sweep's numbers to tests/artifacts/cost-sweep.json
// (COST_N=32768 measures further; the default keeps the test short).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { TAGS } from '../../web/figures/registry.js';
import { start, ready, summary, frames, expectChange, measured, SCREENSHOTS, clickCell } from './harness.js';

const XSS = '<img src=x onerror=alert(1)>';
const COST_N = Number(process.env.COST_N ?? 4096);

let server;
let strict;
before(async () => { [server, strict] = await Promise.all([start(), start({ csp: true })]); });
after(async () => { await Promise.all([server?.close(), strict?.close()]); });

const changes = (page, tag, act) => expectChange(page, tag, act);

test('controls change what each figure shows, and the claims show', async () => {
  const { page, problems, context } = await server.open('/web/index.html');
  await changes(page, 'attention-basic', (el) => el.getByRole('radio', { name: 'teal' }).click());
  await changes(page, 'attention-basic', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('Home'); });
  assert.match(await changes(page, 'attention-tempering', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('End'); }), /^d_k 5\d\d:/);
  const swapped = await changes(page, 'attention-susan-mary', (el) => el.getByRole('button', { name: 'Swap Susan and Mary' }).click());
  assert.match(swapped, /^Mary gave roses to Susan, without .* identical/);
  assert.match(await changes(page, 'attention-susan-mary', (el) => el.getByText('add positional encoding').click()), /with positional encoding: y_gave is different/);
  await changes(page, 'attention-causal-mask', (el) => el.getByText('none', { exact: true }).click());
  assert.match(await changes(page, 'attention-causal-mask', (el) => clickCell(el.locator('figure.mask'), 0, 3)), /^Mask painted/);
  assert.match(await changes(page, 'attention-causal-mask', (el) => el.getByRole('button', { name: 'Previous step' }).click()), /7 tokens/);
  const dense = await changes(page, 'attention-as-dense', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('Home'); });
  assert.match(dense, /Dense output \(.*\); the attention version gives the same in every row \(identical( up to float32 rounding)?, largest difference (0|\de-\d)\)\./);
  const conv = await ready(page, 'attention-as-conv');
  assert.match(await summary(conv), /differs from the convolution by 0; every head’s weights are exactly 0 and 1: the hard limit\./, 'the default temperature is at the hard limit');
  assert.match(await changes(page, 'attention-as-conv', async (el) => { await el.locator('input[type=range]').first().focus(); await page.keyboard.press('End'); }), /temperature (9|10)\.\d+: attention differs from the convolution by (0\.[1-9]|[1-9])/);
  await changes(page, 'attention-as-conv', (el) => el.getByText('5', { exact: true }).click());
  assert.match(await changes(page, 'attention-cross', (el) => el.getByText('English \u2192 German').click()), /German/);
  await changes(page, 'attention-cross', (el) => el.locator('svg.lines text.q, svg.lines text').last().click());
  // heatmap: switching layer-1 head 1 off changes layer 2 (the grid's L2 thumbnails)
  const hm = await ready(page, 'attention-heatmap');
  const thumbs = () => hm.evaluate((e) => [...e.shadowRoot.querySelectorAll('.grid .layer:nth-child(2) canvas')].map((c) => c.toDataURL()));
  const before = await thumbs();
  assert.match(await changes(page, 'attention-heatmap', (el) => el.getByText('head 1: previous word').click()), /3 of 4 heads on/);
  const afterOff = await thumbs();
  assert.notEqual(afterOff[0], before[0], 'layer 2 head 1 is recomputed without what layer 1 head 1 wrote');
  assert.equal(afterOff[1], before[1], 'layer 2 head 2 does not depend on it');
  await changes(page, 'attention-heatmap', (el) => el.locator('svg.headview text.q').nth(7).click());
  assert.deepEqual(problems, []);
  await context.close();
});

test('heatmap: reader-supplied tokens are text only; malformed, oversized and missing data give a message', async () => {
  const json = { tokens: ['Hello', XSS, 'world'], attention: [[[[1, 0, 0], [0.5, 0.5, 0], [0.2, 0.3, 0.5]]]] };
  const { page, problems, context } = await server.open('/web/index.html', {
    prepare: async (p) => {
      await p.addInitScript(() => { window.alert = () => { window.__alerted = true; }; });
      await p.route('**/my-model.json', (route) => route.fulfill({ json }));
    },
  });
  const el = await ready(page, 'attention-heatmap');
  await el.evaluate((e, data) => { e.data = data; }, json);
  await frames(page);
  const seen = await el.evaluate((e) => ({
    imgs: e.shadowRoot.querySelectorAll('img').length,
    texts: [...e.shadowRoot.querySelectorAll('svg.headview text, svg.headview title')].map((t) => t.firstChild.textContent),
    source: e.shadowRoot.querySelector('.source').textContent,
  }));
  assert.equal(seen.imgs, 0, 'no element was made from a token');
  assert.ok(seen.texts.includes(XSS), 'the token is shown literally (in full in its tooltip)');
  assert.ok(seen.texts.includes(`${XSS.slice(0, 23)}\u2026`), 'and cut to 24 characters on the page');
  assert.match(seen.source, /3 tokens, 1 layer/);
  await el.screenshot({ path: `${SCREENSHOTS}attention-heatmap-user-json.png` });
  // malformed JSON pasted by the reader
  await el.locator('summary').click();
  await el.locator('textarea').fill('{"tokens": ["a", "b"], "attention": [[1, 0], [0, ');
  await el.getByRole('button', { name: 'Show', exact: true }).click();
  await frames(page);
  assert.match(await el.locator('.msg[role=alert]').innerText(), /Could not show pasted JSON: This is not valid JSON/);
  // wrong shape, then oversized, through the property
  await el.evaluate((e) => { e.data = { tokens: ['a', 'b'], attention: [[1, 0], [0.5]] }; });
  await frames(page);
  assert.match(await el.locator('.msg[role=alert]').innerText(), /attention\[0\]\[0\]\[1\] must have 2 values/);
  await el.evaluate((e) => { e.data = ' '.repeat(5_000_001); });
  await frames(page);
  assert.match(await el.locator('.msg[role=alert]').innerText(), /reads at most 5,000,000/);
  await el.screenshot({ path: `${SCREENSHOTS}attention-heatmap-error.png` });
  // src: a same-origin file, then one that is not there
  await el.evaluate((e) => e.setAttribute('src', 'my-model.json'));
  await page.waitForFunction(() => /my-model\.json: 3 tokens/.test(document.querySelector('attention-heatmap').shadowRoot.querySelector('.source').textContent));
  await el.evaluate((e) => e.setAttribute('src', 'missing.json'));
  await page.waitForFunction(() => /Could not load missing\.json: HTTP 404/.test(document.querySelector('attention-heatmap').shadowRoot.textContent));
  assert.equal(await page.evaluate(() => window.__alerted ?? false), false);
  assert.deepEqual(problems.filter((p) => !/missing\.json|404/.test(p)), [], 'only the expected 404');
  await context.close();
});

test('under the strict CSP: the cost sweep runs in its worker, fused memory stays O(N d)', async () => {
  const { page, problems, foreign, requests, context } = await strict.open('/web/index.html');
  const el = await ready(page, 'attention-cost');
  await measured(page);
  await el.evaluate((e, n) => { e.setAttribute('n', String(n)); e.setAttribute('budget', '120'); }, COST_N);
  await frames(page);
  await el.getByRole('button', { name: `Measure up to N = ${COST_N}` }).click();
  await measured(page, 'attention-cost', /Done|failed|Stopped/);
  const status = await el.evaluate((e) => e.shadowRoot.querySelector('.status').textContent);
  assert.match(status, /^Done in/);
  const results = await el.evaluate((e) => e.results);
  await writeFile(new URL('../artifacts/cost-sweep.json', import.meta.url), JSON.stringify({ userAgent: await page.evaluate(() => navigator.userAgent), results }, null, 1));
  const d = results[0].d;
  const fused = results.filter((r) => r.kernel === 'fused' && r.build === 'simd' && !r.skipped);
  const plain = results.filter((r) => r.kernel === 'plain' && r.build === 'simd' && !r.skipped);
  assert.ok(fused.at(-1).n >= 4096 && plain.length >= 3);
  const extra = fused.map((r) => r.bytes - 16 * r.n * d);
  const full = extra.at(-1);
  assert.ok(fused.every((r, i) => (r.n >= 1024 ? extra[i] === full : extra[i] <= full)) && full < 256 * 1024,
    `fused holds Q, K, V, output and a fixed workspace: ${extra}`);
  for (const r of plain) assert.ok(r.bytes >= 4 * r.n * r.n, `plain holds the N x N weights at N = ${r.n}`);
  assert.ok(requests.some((u) => u.endsWith('/dist/figures/cost.worker.js')), 'the worker is its own same-origin file');
  await el.screenshot({ path: `${SCREENSHOTS}attention-cost-sweep.png` });
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});

test('copy link puts the state in the hash and restores it; SVG and PNG downloads under the strict CSP', async () => {
  const { page, problems, context } = await strict.open('/web/index.html');
  const el = await ready(page, 'attention-susan-mary');
  await el.getByRole('button', { name: 'Swap Susan and Mary' }).click();
  await el.getByText('add positional encoding').click();
  await frames(page);
  const want = await summary(el);
  await el.getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => location.hash.includes('susan-mary.'));
  const url = page.url();
  assert.match(url, /#.*susan-mary\.order=mary-susan/);
  assert.match(url, /susan-mary\.positions=true/);
  for (const [kind, check] of [
    ['SVG', (b) => assert.match(b.toString('utf8'), /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<rect/s)],
    ['PNG', (b) => assert.deepEqual([...b.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10])],
  ]) {
    const [download] = await Promise.all([page.waitForEvent('download'), el.getByRole('button', { name: kind, exact: true }).click()]);
    assert.equal(download.suggestedFilename(), `attention-susan-mary.${kind.toLowerCase()}`);
    const bytes = await readFile(await download.path());
    assert.ok(bytes.length > 2000, `${kind}: ${bytes.length} bytes`);
    check(bytes);
  }
  assert.deepEqual(problems, []);
  await context.close();
  // the link opens the same view
  const again = await strict.open(new URL(url).pathname + new URL(url).hash);
  const restored = await ready(again.page, 'attention-susan-mary');
  assert.equal(await summary(restored), want);
  assert.deepEqual(again.problems, []);
  await again.context.close();
});

test('attributes set the initial state (strict-CSP test page)', async () => {
  const { page, problems, context } = await strict.open('/web/embed/csp-test.html');
  const expect = {
    'attention-tempering': /^d_k 256:/,
    'attention-susan-mary': /with positional encoding: y_gave is different/,
    'attention-causal-mask': /^Mask window of 3/,
    'attention-as-conv': /temperature 0\.500/,
    'attention-cross': /^English \u2192 German/,
    'attention-induction': /^1 layer, step 0 of 200/,
    'attention-tiny-gpt': /^Step 0 of 200, not started: Start trains the model in this page\./,
  };
  for (const tag of TAGS) {
    const el = await ready(page, tag);
    if (expect[tag]) assert.match(await summary(el), expect[tag], tag);
  }
  const cost = await ready(page, 'attention-cost');
  assert.equal(await cost.evaluate((e) => e.n), 4096, 'the property mirrors the attribute');
  await measured(page);
  await measured(page, 'attention-efficient');
  assert.deepEqual(problems, []);
  await context.close();
});

