// pool.test.js: attentionPool() in Chromium, from web/attention.js as a page
// imports it unbundled: Web Workers each with the page's compiled module
// (the pool's workers fetch no .wasm), results bit for bit the page's own
// engine's (relaxed, and scalar) with every call split over 3 workers, the
// workers ended when the page goes away (pagehide) and started again by the
// next call, and none left once the pool is closed (Chromium's own list of
// the page's worker targets, not a count the page keeps).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start } from './harness.js';

let server;
before(async () => { server = await start(); });
after(async () => { await server?.close(); });

// In the page: a pool of `workers` and the engine of `build`, every call
// split; the calls of the Node suite's kinds, each compared bit for bit.
function inPage([build, workers]) {
  return (async () => {
    const { attentionPool, loadAttention } = await import('/web/attention.js');
    const { poolState } = await import('/web/api/pool.js');
    const attn = await loadAttention({ build });
    const pool = await attentionPool({ build, workers, module: attn.module }); // the page's module: no second fetch
    poolState.get(pool).splitMacs = 0;
    let seed = 1;
    const rand = (rows, cols) => ({ rows, cols, data: Float32Array.from({ length: rows * cols }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1) });
    const same = (a, b) => a.data.length === b.data.length && new Uint32Array(a.data.buffer).every((v, i) => v === new Uint32Array(b.data.buffer)[i]);
    const diffs = [];
    for (const [n_q, n_k, d] of [[1, 5, 8], [7, 129, 16], [300, 200, 64], [1030, 64, 32]]) {
      const [Q, K, V] = [rand(n_q, d), rand(n_k, d), rand(n_k, d)];
      for (const opts of [{}, { causal: true, weights: false }, { window: 4, globalTokens: [0, n_k - 1], keyPaddingMask: Array.from({ length: n_k }, (_, j) => j % 5 === 1) }]) {
        const [a, b] = [attn.attention(Q, K, V, opts), await pool.attention(Q, K, V, opts)];
        if (!same(a.output, b.output) || (a.weights && !same(a.weights, b.weights))) diffs.push(`attention ${n_q}x${n_k}x${d} ${JSON.stringify(opts)}`);
      }
      const layer = { heads: 4, Wq: rand(d, d), Wk: rand(d, d), Wv: rand(d, d), Wo: rand(d, d), bo: rand(1, d).data };
      const X = rand(Math.max(n_q, 5), d);
      const [a, b] = [attn.multiHeadAttention(X, null, { ...layer, causal: true }), await pool.multiHeadAttention(X, null, { ...layer, causal: true })];
      if (!same(a.output, b.output) || a.weights.some((w, h) => !same(w, b.weights[h]))) diffs.push(`multiHeadAttention ${X.rows}x${d}`);
    }
    window.__pool = pool;
    window.__check = async () => { // one more split call after the workers were ended
      const [Q, K, V] = [rand(64, 16), rand(80, 16), rand(80, 16)];
      return same(attn.attention(Q, K, V, { causal: true }).output, (await pool.attention(Q, K, V, { causal: true })).output);
    };
    return { diffs, build: pool.build, memory: await pool.memoryInUse() };
  })();
}

// The page's worker targets, once the count has settled on `want` (or what it is after 5 s).
async function workerTargets(page, want) {
  for (let t = 0; t < 50 && page.workers().length !== want; t++) await page.waitForTimeout(100);
  return page.workers().length;
}

test('attentionPool in Chromium: the engine\'s bits over 3 workers (relaxed, scalar), none fetching the .wasm; ended on pagehide and by close()', async () => {
  const { page, problems } = await server.open('/pool.html', {
    prepare: (p) => server.fake(p, '/pool.html', '<!doctype html><html lang="en"><title>pool</title><p>A page with a pool.</p>'),
  });
  // (requests from the page's workers come here too: their scripts are counted below)
  const wasmFetches = [], workerScripts = [];
  page.on('request', (r) => {
    if (r.url().endsWith('.wasm')) wasmFetches.push(r.url());
    if (r.url().endsWith('/web/api/pool-serve.js')) workerScripts.push(r.url());
  });
  for (const build of ['relaxed', 'scalar']) {
    const before = wasmFetches.length;
    const r = await page.evaluate(inPage, [build, 3]);
    assert.deepEqual(r.diffs, [], `${build}: calls whose bits differ from the engine's`);
    assert.equal(r.build, build);
    assert.deepEqual(r.memory, [0, 0, 0], `${build}: memory the workers' engines hold between calls`);
    assert.equal(wasmFetches.length - before, 1, `${build}: .wasm fetched ${wasmFetches.slice(before)} (the page's engine's once, no worker's)`);
    assert.equal(await workerTargets(page, 3), 3, `${build}: the pool's worker targets`);
    // the page goes away: the workers end; a next call (the page restored) starts them again
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true })));
    assert.equal(await workerTargets(page, 0), 0, `${build}: worker targets after pagehide`);
    assert.equal(await page.evaluate(() => window.__check()), true, `${build}: a call after pagehide`);
    assert.equal(await workerTargets(page, 3), 3, `${build}: worker targets once called again`);
    await page.evaluate(() => window.__pool.close());
    assert.equal(await workerTargets(page, 0), 0, `${build}: worker targets after close()`);
    assert.match(await page.evaluate(() => window.__check().then(() => 'resolved', (e) => e.message)), /this pool is closed/);
  }
  assert.ok(workerScripts.length >= 1, 'no request of the workers\' scripts was seen');
  assert.deepEqual(problems, []);
});
