// attention-cost in headless Chromium, on a page of its own: under the
// strict CSP its sweep runs in its own worker (a same-origin file), and the
// fused kernel's memory stays O(N d) while the plain one holds the N x N
// weights; a change of d shows that d's timings (measured first, once),
// and a copied link holds d, says that timings are measured afresh, and
// opened, shows that d's. The sweep's numbers go to
// tests/artifacts/cost-sweep.json (COST_N=32768 measures further; the
// default keeps the test short), its screenshot to
// tests/artifacts/screenshots/. (What it shares with attention-efficient,
// turns and workers: tests/browser/measuring.test.js.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { start, ready, measured, frames, spyOnWorkers, measuringWorkers as workers, ARTIFACTS, SCREENSHOTS } from '../../browser/harness.js';

const TAG = 'attention-cost';
const COST_N = Number(process.env.COST_N ?? 4096);

let server;
let strict;
before(async () => { server = await start(); strict = await start({ csp: true, browser: server.browser }); });
after(async () => { await strict?.close(); await server?.close(); });

const prepare = (page) => page.addInitScript(spyOnWorkers);
const status = (page, sel = '#mine') => page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.status').textContent, sel);

test('cost: a change of d shows that d\u2019s timings, and the link holds d, says timings are measured afresh, and restores it', async () => {
  const { page, problems, context } = await server.openFigure(TAG, { attrs: { id: 'mine', n: '1024', budget: '5' }, prepare });
  await measured(page, '#mine');
  assert.match(await status(page), /\(d = 32\)\.$/);
  await page.locator('#mine').getByText('64', { exact: true }).click();
  await page.waitForFunction(() => /d = 64/.test(document.querySelector('#mine').shadowRoot.querySelector('.status').textContent));
  await measured(page, '#mine');
  assert.match(await status(page), /^Done in .* \(d = 64\)\.$/);
  assert.ok(await page.evaluate(() => document.querySelector('#mine').results.every((r) => r.d === 64)), 'every timing shown is for d = 64');
  assert.match(await page.evaluate(() => document.querySelector('#mine').summary), /^Largest measured at d = 64:/);
  // back to 32: its timings, without measuring again
  const starts = (await workers(page)).starts;
  await page.locator('#mine').getByText('32', { exact: true }).click();
  await frames(page);
  assert.match(await status(page), /\(d = 32\)\.$/);
  assert.equal((await workers(page)).starts, starts);
  await page.locator('#mine').getByText('64', { exact: true }).click();
  await frames(page);
  await page.locator('#mine').getByRole('button', { name: 'Copy link' }).click();
  await page.waitForFunction(() => /measured afresh/.test(document.querySelector('#mine').shadowRoot.querySelector('.tool-status').textContent));
  const url = new URL(page.url());
  assert.match(url.hash, /mine\.d=64/);
  await context.close();

  const again = await server.openFigure(TAG, { attrs: { id: 'mine' }, hash: url.hash, prepare });
  await ready(again.page, '#mine');
  assert.equal(await again.page.evaluate(() => document.querySelector('#mine').d), '64');
  await measured(again.page, '#mine');
  assert.match(await status(again.page), /d = 64/);
  assert.ok(await again.page.evaluate(() => document.querySelector('#mine').results.every((r) => r.d === 64)));
  assert.deepEqual([...problems, ...again.problems], []);
  await again.context.close();
});

test('under the strict CSP: the cost sweep runs in its worker, fused memory stays O(N d)', async () => {
  const { page, problems, foreign, requests, context } = await strict.openFigure(TAG);
  const el = await ready(page, TAG);
  await measured(page);
  await el.evaluate((e, n) => { e.setAttribute('n', String(n)); e.setAttribute('budget', '120'); }, COST_N);
  await frames(page);
  await el.getByRole('button', { name: `Measure up to N = ${COST_N}` }).click();
  await measured(page, TAG, /Done|failed|Stopped/);
  assert.match(await status(page, TAG), /^Done in/);
  const results = await el.evaluate((e) => e.results);
  await writeFile(`${ARTIFACTS}cost-sweep.json`, JSON.stringify({ userAgent: await page.evaluate(() => navigator.userAgent), results }, null, 1));
  const d = results[0].d;
  const fused = results.filter((r) => r.kernel === 'fused' && r.build === 'simd' && !r.skipped);
  const plain = results.filter((r) => r.kernel === 'plain' && r.build === 'simd' && !r.skipped);
  assert.ok(fused.at(-1).n >= 4096 && plain.length >= 3);
  const extra = fused.map((r) => r.bytes - 16 * r.n * d);
  const full = extra.at(-1);
  assert.ok(fused.every((r, i) => (r.n >= 1024 ? extra[i] === full : extra[i] <= full)) && full < 512 * 1024, // 328 KiB at d = 32
    `fused holds Q, K, V, output and a fixed workspace: ${extra}`);
  for (const r of plain) assert.ok(r.bytes >= 4 * r.n * r.n, `plain holds the N x N weights at N = ${r.n}`);
  assert.ok(requests.some((u) => u.endsWith('/dist/figures/cost.worker.js')), 'the worker is its own same-origin file');
  // on every core: the fused kernel through the worker's own pool, a worker per core Chromium reports
  // (dist/figures/pool-worker.js, under the strict CSP: had it not loaded, the sweep would have failed)
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const onCores = results.filter((r) => r.build === 'cores' && !r.skipped);
  if (cores > 1) {
    assert.ok(onCores.length >= 3 && onCores.every((r) => r.cores === cores && r.ms > 0 && fused.some((f) => f.n === r.n)), JSON.stringify(onCores));
    assert.match(await el.evaluate((e) => e.shadowRoot.querySelector('.legend').textContent), new RegExp(`fused, SIMD on ${cores} cores`));
  } else {
    assert.equal(onCores.length, 0);
  }
  await el.screenshot({ path: `${SCREENSHOTS}attention-cost-sweep.png` });
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});
