// attention-cost: the fused kernel's memory stays O(N d); the plain one's
// grows as N^2. (Memory only: tests never assert on time.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttention } from '../../../web/attention.js';
import { CORES, sweep, sweepWithCores, measure, sizes, predict } from '../../../web/figures/cost/cost.model.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';

const strings = await tablesOf('cost');
const words = translator(strings.en, 'en');

const engines = { simd: await loadAttention({ simd: true }), scalar: await loadAttention({ simd: false }) };

test('fused memory per N*d stays flat while plain memory per N^2 stays flat', () => {
  const d = 32;
  for (const build of ['simd', 'scalar']) {
    const fused = sizes(8192).map((n) => ({ n, ...measure(engines[build], { n, d, kernel: 'fused' }) }));
    const plain = sizes(4096).map((n) => ({ n, ...measure(engines[build], { n, d, kernel: 'plain' }) }));
    // Q, K, V and the output take 16 bytes per element (4 matrices of N x d
    // float32); all the fused kernel adds is a workspace of a few tiles and
    // one pass of at most 1024 queries: the same for every N from 1024 on
    const extra = fused.map((r) => r.bytes - 16 * r.n * d);
    const full = extra.at(-1);
    fused.forEach((r, i) => assert.ok(r.n >= 1024 ? extra[i] === full : extra[i] <= full, `${build}: fused extra bytes ${extra}`));
    assert.ok(full >= 0 && full < 512 * 1024, `${build}: workspace ${full} bytes`); // 328 KiB at d = 32
    for (const r of plain) assert.ok(r.bytes >= 4 * r.n * r.n, `${build} plain at ${r.n}: ${r.bytes} bytes`);
    for (let k = 1; k < plain.length; k++) {
      const growth = plain[k].bytes / plain[k - 1].bytes;
      assert.ok(growth > 3 && growth <= 4, `${build} plain memory x${growth} when N doubles`);
    }
  }
});

test('long sequences: fused at N = 32768 holds under 3 MiB more than its inputs; plain cannot fit at 32768', () => {
  const n = 32768;
  const d = 8;
  const r = measure(engines.simd, { n, d, kernel: 'fused' });
  assert.ok(r.bytes < 16 * n * d + 3 * 2 ** 20, `${r.bytes} bytes`);
  assert.ok(measure(engines.simd, { n, d, kernel: 'plain' }).skipped);
  assert.equal(engines.simd.memoryInUse(), 0, 'nothing left allocated');
});

test('fused and plain compute the same output', () => {
  const X = { rows: 300, cols: 16, data: Float32Array.from({ length: 4800 }, (_, k) => Math.sin(k * 0.37)) };
  const a = engines.simd.attention(X, X, X, { weights: false }).output.data;
  const b = engines.simd.attention(X, X, X, { weights: true }).output.data;
  a.forEach((v, k) => assert.ok(Math.abs(v - b[k]) < 1e-5, `output[${k}]`));
});

test('the sweep stops a variant when its next run is predicted past the cap or budget', () => {
  let t = 0;
  const clock = () => t;
  // fake engine: each call "takes" (N/256)^2 ms on the fake clock
  const fake = { memoryPeak: () => 1, attention: (X) => { t += (X.rows / 256) ** 2; } };
  const results = [...sweep({ simd: fake }, { maxN: 16384, d: 4, budgetMs: 1e9, runCapMs: 1000, now: clock })];
  const fused = results.filter((r) => r.kernel === 'fused');
  assert.deepEqual(fused.filter((r) => !r.skipped).map((r) => r.n), [256, 512, 1024, 2048, 4096]);
  assert.equal(fused.at(-1).n, 8192);
  assert.equal(fused.at(-1).skipped, 'skipRunTime');
  assert.equal(fused.at(-1).predictedMs, 1024); // predicted 4 x 256 ms
  assert.equal(predict({ n: 100, ms: 2 }, 200), 8);
  const tight = [...sweep({ simd: fake }, { maxN: 16384, d: 4, budgetMs: 50, runCapMs: 1e9, now: clock })];
  assert.ok(tight.some((r) => r.skipped === 'skipBudget'));
  assert.equal(words('skipBudget'), 'the time budget is spent');
  // past the wasm memory limit the plain kernel is skipped for memory, whatever the time
  const far = [...sweep({ simd: fake }, { maxN: 32768, d: 4, budgetMs: 1e12, runCapMs: 1e12, now: clock })];
  const plain = far.find((r) => r.kernel === 'plain' && r.n === 32768);
  assert.match(words(plain.skipped, plain), /needs 4 GiB for the weights alone/);
  assert.ok(far.find((r) => r.kernel === 'fused' && r.n === 32768).ms > 0);
});

test('every kernel of every build is warmed up before the first timing (a cold fused kernel timed slow)', () => {
  let t = 0;
  const calls = [];
  const spy = (build) => ({ memoryPeak: () => 1, attention: (X, K, V, { weights }) => { calls.push(`${build}/${weights ? 'plain' : 'fused'}`); t += 1; } });
  const run = sweep({ simd: spy('simd'), scalar: spy('scalar') }, { maxN: 1024, d: 4, budgetMs: 1e9, runCapMs: 1e9, now: () => t });
  run.next(); // the first measurement
  const before = new Set(calls.slice(0, -1));
  for (const id of ['simd/fused', 'simd/plain', 'scalar/fused', 'scalar/plain']) assert.ok(before.has(id), `${id} is not warmed up`);
});

test('a call shorter than the clock\'s tick is timed in a batch, never as 0 ms (a log axis has no place for 0)', () => {
  // a browser's clock in 0.1 ms steps; each call takes 0.01 ms
  let t = 0;
  const clock = () => Math.floor(t * 10) / 10;
  const fake = { memoryPeak: () => 1, attention: () => { t += 0.01; } };
  const r = measure(fake, { n: 256, d: 16, kernel: 'fused', repeats: 3, now: clock });
  assert.ok(r.ms > 0.009 && r.ms < 0.011, `${r.ms} ms per call`);
  const all = [...sweep({ simd: fake, scalar: fake }, { maxN: 1024, d: 16, budgetMs: 1e9, now: clock })];
  assert.ok(all.every((x) => x.skipped || x.ms > 0), 'every time is positive');
});

test('on every core: after each N\'s fused run of the best build, the same call through a pool, stopped by the sweep\'s rules', async () => {
  let t = 0;
  const clock = () => t;
  // fake engine and pool: a call "takes" (N/256)^2 ms on one core, a quarter of it on the pool's 4
  const fake = { memoryPeak: () => 1, attention: (X) => { t += (X.rows / 256) ** 2; } };
  const pool = { workers: 4, attention: async (X) => { t += (X.rows / 256) ** 2 / 4; } };
  const results = [];
  for await (const r of sweepWithCores({ simd: fake }, pool, { maxN: 16384, d: 4, budgetMs: 1e9, runCapMs: 1000, now: clock })) results.push(r);
  const cores = results.filter((r) => r.build === CORES);
  assert.ok(cores.every((r) => r.kernel === 'fused' && !('bytes' in r)));
  // each right after the one-core fused run at its N
  for (const r of cores) {
    const before = results[results.indexOf(r) - 1];
    assert.deepEqual([before.build, before.kernel, before.n], ['simd', 'fused', r.n]);
  }
  const timed = cores.filter((r) => !r.skipped);
  assert.deepEqual(timed.map((r) => r.n), [256, 512, 1024, 2048, 4096]);
  assert.ok(timed.every((r) => r.cores === 4 && Math.abs(r.ms - (r.n / 256) ** 2 / 4) < 1e-9), JSON.stringify(timed));
  assert.equal(cores.at(-1).skipped, 'skipRunTime'); // the one-core run at 8192 was predicted past the cap: the series stops with it
  // no pool (one core): the sweep alone
  const alone = [];
  for await (const r of sweepWithCores({ simd: fake }, null, { maxN: 1024, d: 4, budgetMs: 1e9, now: clock })) alone.push(r);
  assert.equal(alone.filter((r) => r.build === CORES).length, 0);
});

test('on every core the pool computes the engine\'s bits (the note\'s claim)', async () => {
  const { attentionPool } = await import('../../../web/attention.js');
  const { poolState } = await import('../../../web/api/pool.js');
  const pool = await attentionPool({ module: engines.simd.module, parts: 'all', workers: 2 });
  poolState.get(pool).splitMacs = 0;
  const X = { rows: 600, cols: 32, data: Float32Array.from({ length: 600 * 32 }, (_, k) => Math.sin(k * 0.37)) };
  const want = engines.simd.attention(X, X, X, { weights: false }).output.data;
  const got = (await pool.attention(X, X, X, { weights: false })).output.data;
  assert.ok(Buffer.from(want.buffer).equals(Buffer.from(got.buffer)));
  await pool.close();
});
