// attention-cost in headless Chromium, on a page of its own: under the
// strict CSP its sweep runs in its own worker (a same-origin file), and the
// fused kernel's memory stays O(N d) while the plain one holds the N x N
// weights. The sweep's numbers go to
// tests/artifacts/cost-sweep.json (COST_N=32768 measures further; the
// default keeps the test short), its screenshot to
// tests/artifacts/screenshots/. (What it shares with attention-efficient,
// turns and workers: tests/browser/measuring.test.js.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { start, ready, measured, frames, ARTIFACTS, SCREENSHOTS } from '../../browser/harness.js';

const TAG = 'attention-cost';
const COST_N = Number(process.env.COST_N ?? 4096);

let strict;
before(async () => { strict = await start({ csp: true }); });
after(async () => { await strict?.close(); });

const status = (page, sel = '#mine') => page.evaluate((s) => document.querySelector(s).shadowRoot.querySelector('.status').textContent, sel);

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
  assert.ok(fused.every((r, i) => (r.n >= 1024 ? extra[i] === full : extra[i] <= full)) && full < 256 * 1024,
    `fused holds Q, K, V, output and a fixed workspace: ${extra}`);
  for (const r of plain) assert.ok(r.bytes >= 4 * r.n * r.n, `plain holds the N x N weights at N = ${r.n}`);
  assert.ok(requests.some((u) => u.endsWith('/dist/figures/cost.worker.js')), 'the worker is its own same-origin file');
  await el.screenshot({ path: `${SCREENSHOTS}attention-cost-sweep.png` });
  assert.deepEqual(problems, []);
  assert.deepEqual(foreign(), []);
  await context.close();
});
