// tiles.test.js: the register tiles of the matrix products (src/gemm.c,
// web/api/tiles.js). On a build with both (the relaxed one), every call gives
// the same bits under 2x16 and 6x8; tiles: 'auto' picks one in the
// background, leaves nothing allocated and computes the same all the while;
// the pick waits for V8's optimized code (a fake engine and clock replay
// what Node 20 and Chromium 156 measured), times baseline code first even
// when the caller computes at once, and is made once per realm; a bad
// `tiles` option is an error that names it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { forEachBuild, randMatrix, rng } from './helpers.js';
import { loadAttention } from '../../web/attention.js';
import { pickTiles, TILES, useTiles } from '../../web/api/tiles.js';

forEachBuild('tiles', (attn, build) => {
  test("'auto' settles on a tile the build has, with nothing left allocated", async () => {
    const fresh = await loadAttention({ build: build.name });
    const picked = await fresh.tuned;
    assert.ok(['2x16', '6x8'].includes(picked), picked);
    if (build.name !== 'relaxed') assert.equal(picked, '2x16');
    assert.equal(fresh.memoryInUse(), 0);
  });

  test('the attention part alone has 2x16 only (built for size)', { skip: build.name !== 'relaxed' && 'only the relaxed build has 6x8' }, async () => {
    const part = await loadAttention({ build: build.name, parts: 'attention' });
    assert.equal(await part.tuned, '2x16');
    await assert.rejects(loadAttention({ build: build.name, parts: 'attention', tiles: '6x8' }), /tiles '6x8' needs the full engine \(attention\.relaxed\.wasm\)/);
  });

  test('6x8 gives the bits 2x16 gives, in every product of every call', { skip: build.name !== 'relaxed' && 'only the relaxed build has 6x8' }, async () => {
    const [a, b] = await Promise.all(['2x16', '6x8'].map((tiles) => loadAttention({ build: build.name, tiles })));
    assert.deepEqual([await a.tuned, await b.tuned], ['2x16', '6x8']);
    const rs = rng(2801);
    const same = (what, f) => assert.deepEqual(f(b), f(a), what);
    for (const [m, k, n] of [[1, 3, 1], [6, 64, 8], [7, 17, 9], [13, 64, 33], [130, 64, 257]]) {
      const [A, B] = [randMatrix(rs, m, k), randMatrix(rs, k, n)];
      same(`matmul ${m} x ${k} x ${n}`, (e) => e.matmul(A, B).data);
    }
    const [Q, K, V, dO] = [randMatrix(rs, 70, 64), randMatrix(rs, 300, 64), randMatrix(rs, 300, 32), randMatrix(rs, 70, 32)];
    for (const weights of [false, true]) {
      same(`attention, weights ${weights}`, (e) => {
        const r = e.attention(Q, K, V, { weights, causal: !weights });
        return [r.output.data, r.weights?.data];
      });
      same(`attentionBackward, weights ${weights}`, (e) => Object.values(e.attentionBackward(Q, K, V, dO, { weights })).map((g) => g.data));
    }
    const X = randMatrix(rs, 40, 48);
    same('multiHeadAttention', (e) => {
      const W = () => e.matrix(48, 48, randMatrix(rng(7), 48, 48).data.map((x) => x * 0.2));
      return e.multiHeadAttention(X, null, { heads: 4, Wq: W(), Wk: W(), Wv: W(), Wo: W(), weights: false }).output.data;
    });
    same('three training steps of a tiny transformer', (e) => {
      const m = e.createTransformer({ vocab: 9, context: 8, dModel: 12, heads: 2, layers: 2, seed: 5 });
      const seqs = Array.from({ length: 4 }, (_, i) => Array.from({ length: 8 }, (_, j) => (i + j * 3) % 9));
      const losses = [0, 1, 2].map(() => m.trainStep(seqs, { lr: 0.01 }));
      const out = { losses, params: m.parameters() };
      m.dispose();
      return out;
    });
  });
});

describe('tiles: the option', () => {
  test("a tiles value of the wrong type or name is an error naming 'tiles'", async () => {
    await assert.rejects(loadAttention({ tiles: 6 }), { name: 'TypeError', message: /tiles must be 'auto', '2x16' or '6x8', got number/ });
    await assert.rejects(loadAttention({ tiles: '8x6' }), { name: 'RangeError', message: /tiles must be .* got '8x6'/ });
  });
  test("'6x8' on a build without it is an error that says which engine has it", async () => {
    await assert.rejects(loadAttention({ build: 'simd', tiles: '6x8' }), /tiles '6x8' needs the full engine \(attention\.relaxed\.wasm\)/);
    const forced = await loadAttention({ build: 'simd', tiles: '2x16' });
    assert.equal(await forced.tuned, '2x16');
  });
});

// ---- pickTiles against a replayed engine ------------------------------------

/**
 * Fake exports and clock: a product of m rows under `tile` takes
 * ms(tile, clock) * m / 384 milliseconds at the clock's time since loading
 * (V8 optimizes once products have run, the caller's or the pick's), a wait
 * its own, and each reading of the clock 1 us. Records what was allocated,
 * freed and set.
 */
function fakeEngine(ms) {
  let clock = 0, tile = 0, next = 64;
  const log = { allocated: [], freed: [] };
  const ex = {
    memory: { buffer: new ArrayBuffer(4 << 20) },
    attn_alloc: (bytes) => { const p = next; next += bytes; log.allocated.push(p); return p; },
    attn_free: (p) => log.freed.push(p),
    attn_set_gemm_tiles: (t) => { tile = t; return 0; },
    attn_matmul: (c, a, b, m) => { clock += (ms(tile === TILES['6x8'] ? '6x8' : '2x16', clock) * m) / 384; return 0; },
  };
  const options = { now: () => (clock += 0.001), wait: async (wait) => { clock += wait; } };
  return { ex, log, options, tile: () => tile };
}

describe('tiles: pickTiles', () => {
  // Baseline code (V8 runs it first) favours 6x8 everywhere; optimized code,
  // ready `compiled` ms after loading, runs 6x8 at half speed in V8 up to 12
  // and 5-10% faster in later V8.
  const baseline = { '2x16': 1.0, '6x8': 0.7 };
  const engines = {
    'V8 up to 12 (Node 20)': { optimized: { '2x16': 0.2, '6x8': 0.4 }, want: '2x16' },
    'later V8 (Chromium 156)': { optimized: { '2x16': 0.2, '6x8': 0.186 }, want: '6x8' },
  };
  const replay = (optimized, compiled, outlier = () => false) =>
    fakeEngine((tile, clock) => (outlier(clock) ? 5 : (clock < compiled ? baseline : optimized)[tile]));
  for (const [name, { optimized, want }] of Object.entries(engines)) {
    test(`${name}: picks ${want} on optimized code; restores 2x16; frees all`, async () => {
      const f = replay(optimized, 15);
      assert.equal(await pickTiles(f.ex, f.options), want);
      assert.equal(f.tile(), TILES['2x16']); // the engine's tile until the caller sets the pick
      assert.deepEqual([...f.log.freed].sort(), [...f.log.allocated].sort());
    });
    test(`${name}: optimized code within 1 ms of loading (the caller's products ask for it): picks ${want}`, async () => {
      // Round 0 runs before the caller can: it still times baseline code.
      const f = replay(optimized, 1);
      assert.equal(await pickTiles(f.ex, f.options), want);
    });
    test(`${name}: optimized code late (or never): no pick made on baseline code, 2x16`, async () => {
      for (const compiled of [60, Infinity]) {
        const f = replay(optimized, compiled);
        assert.equal(await pickTiles(f.ex, f.options), '2x16', `optimized code after ${compiled} ms`);
      }
    });
  }
  test('a tie within 2% (a coarse clock) goes to 6x8: where it is not faster it is twice as slow', async () => {
    for (const [t6, want] of [[0.203, '6x8'], [0.21, '2x16']]) {
      const f = replay({ '2x16': 0.2, '6x8': t6 }, 15);
      assert.equal(await pickTiles(f.ex, f.options), want, `6x8 at ${t6} ms against 0.2`);
    }
  });
  test('outlier blocks (a collection, the page) do not decide: the fastest blocks do', async () => {
    const f = replay(engines['later V8 (Chromium 156)'].optimized, 15, (clock) => Math.floor(clock) % 7 === 3);
    assert.equal(await pickTiles(f.ex, f.options), '6x8');
  });
  test("'auto' times once per realm: a later engine takes the pick, its products untimed", async () => {
    // (A later engine's products may run code V8 optimized for an earlier one.)
    const [a, b] = [0, 1].map(() => replay(engines['later V8 (Chromium 156)'].optimized, 15));
    let timedB = 0;
    const matmulB = b.ex.attn_matmul;
    b.ex.attn_matmul = (...args) => (timedB++, matmulB(...args));
    const picked = await useTiles(a.ex, 'auto');
    assert.equal(await useTiles(b.ex, 'auto'), picked);
    assert.equal(timedB, 0);
    assert.equal(b.tile(), TILES[picked]);
  });
  test('out of wasm memory: 2x16, and what was allocated is freed', async () => {
    const f = fakeEngine(() => 0.2);
    f.ex.attn_alloc = (bytes) => (bytes > 100_000 ? 0 : (f.log.allocated.push(8), 8));
    assert.equal(await pickTiles(f.ex, f.options), '2x16');
    assert.deepEqual(f.log.freed, f.log.allocated);
  });
});
