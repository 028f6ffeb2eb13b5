// attention-efficient: its claims, on its model.
//   1. window attention equals full attention under the same mask;
//   2. the Performer's error falls as its features grow;
//   3. time grows like N w and N m (log-log slope about 1) against N^2 for
//      full. Tests never assert on time, so what is checked is what the time
//      follows: the query-key pairs the window's kernel gives weight to grow
//      like N w (slope 1) where full attention's grow like N^2 (slope 2); the
//      memory of every mechanism grows like N d, never N^2; and the sweep's
//      machinery, with a fake clock, reports the slopes of the times it is
//      given and stops within its cap and budget. The times themselves are
//      measured live by the figure and by the bench (bench/sections/efficient.mjs).
// And what the window costs in the kernel: whole tiles of 128 x 128 scores
// (a band of 2w + 1 keys costs three tiles of keys at w = 32, a global
// token a block row and column of tiles), counted by windowTiles, which is
// checked here against the mask itself. The numbers the article and the
// note quote (the share kept by the window, the Performer's error at 4 and
// 1,024 features and how slowly it falls, the tiles) are checked here too,
// and the operation counts the note gives against the article's and the
// cost figure's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import {
  example, featureErrors, measure, misplaced, parseGlobal, performerWeights, readGlobal, slope, sweep, sweepWithCores, tokens, windowMask, windowTiles, EXPONENT,
  CORES, FEATURE_COUNTS, N_TOKENS, SEEDS, SWEEP, TILE,
} from '../../../web/figures/efficient/efficient.model.js';
import { readFileSync } from 'node:fs';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';
import { pct } from '../../../web/kit/format.js';

const strings = await tablesOf('efficient');
const costStrings = await tablesOf('cost');

const attn = await engine();

test('window attention equals full attention under the same additive mask', () => {
  for (const window of [0, 1, 3, 6, 12]) {
    for (const global of [[], [0], [0, 17], [31]]) {
      const ex = example(attn, { window, global, features: 16 });
      assert.ok(ex.windowGap <= 1e-6, `window ${window}, global [${global}]: largest difference ${ex.windowGap}`);
      const mask = windowMask(N_TOKENS, window, global);
      ex.windowed.data.forEach((w, k) => {
        if (mask.data[k] === -Infinity) assert.equal(w, 0, `hidden weight ${k} is exactly 0`);
      });
      // a global row sees every key: its weights are those of full attention
      for (const g of global) {
        for (let j = 0; j < N_TOKENS; j++) {
          const [a, b] = [ex.windowed.data[g * N_TOKENS + j], ex.exact.data[g * N_TOKENS + j]];
          assert.ok(Math.abs(a - b) <= 1e-6, `global row ${g}, key ${j}: ${a} vs ${b}`);
        }
      }
    }
  }
  // a wider window keeps more of the weight, and one past every distance keeps all of it
  const kept = [0, 2, 4, 8, 31].map((window) => example(attn, { window, features: 16 }).kept);
  kept.slice(1).forEach((k, i) => assert.ok(k > kept[i], `kept ${kept}`));
  assert.ok(Math.abs(kept.at(-1) - 1) < 1e-5);
  // the article: about a third kept with w = 3 (global token 0, the default), most with w = 12
  const third = example(attn, { window: 3, global: [0], features: 16 }).kept;
  assert.ok(third > 0.28 && third < 0.4, `w = 3 keeps ${third}`);
  assert.ok(example(attn, { window: 12, global: [0], features: 16 }).kept > 0.5);
});

test('the pairs the window gives weight to grow like N w (slope 1), full attention\'s like N^2 (slope 2)', () => {
  const d = 8;
  const counts = [256, 512, 1024, 2048].map((n) => {
    const X = { rows: n, cols: d, data: Float32Array.from({ length: n * d }, (_, k) => Math.sin(k * 0.61)) };
    const nonzero = (opts) => attn.attention(X, X, X, opts).weights.data.reduce((c, w) => c + (w > 0 ? 1 : 0), 0);
    return { n, full: nonzero({}), window: nonzero({ window: SWEEP.window }) };
  });
  const w = SWEEP.window;
  // every pair within w of the diagonal, and no other: N (2w + 1) - w (w + 1)
  for (const c of counts) {
    assert.equal(c.full, c.n * c.n);
    assert.equal(c.window, c.n * (2 * w + 1) - w * (w + 1), `N = ${c.n}`);
  }
  assert.ok(Math.abs(slope(counts, 'n', 'full') - 2) < 1e-9);
  const s = slope(counts, 'n', 'window');
  assert.ok(s > 0.95 && s < 1.1, `window slope ${s}`);
  assert.equal(attn.memoryInUse(), 0);
});

test("the Performer's error falls as its features grow, far more slowly than an average of independent draws", () => {
  // the figure's curve: every feature count it offers, averaged over the figure's SEEDS draws
  const errors = featureErrors(attn);
  assert.deepEqual(errors.map((e) => e.m), FEATURE_COUNTS);
  assert.equal(SEEDS, 6);
  for (let i = 1; i < errors.length; i++) {
    assert.ok(errors[i].error < errors[i - 1].error, `misplaced weight ${errors.map((e) => e.error.toFixed(3))}`);
  }
  // An average of m independent draws would lose noise like 1/sqrt(m): 256
  // times the features, 16 times less. Positive random features are
  // heavy-tailed (a few large ones dominate each estimate) and the softmax
  // ratio adds a bias: the error falls less than fourfold, a log-log slope
  // far shallower than -1/2.
  const [first, last] = [errors[0].error, errors.at(-1).error];
  assert.ok(first / last > 2 && first / last < 4, `${first} -> ${last}: ${(first / last).toFixed(2)}x less for 256x the features`);
  const k = slope(errors, 'm', 'error');
  assert.ok(k > -0.3 && k < -0.1, `log-log slope ${k.toFixed(3)} (an average of independent draws: -0.5)`);
  // the article and the figure: about 31% misplaced with 4 features, about 11% with 1,024
  assert.deepEqual([pct(first), pct(last)], ['31%', '11%']);
  // a single draw is noisier than the average: the figure's drawn weights are one draw, its numbers the average
  const one = featureErrors(attn, { seeds: 1 });
  assert.ok(one.some((e, i) => i > 0 && e.error > one[i - 1].error), 'one draw does not fall at every step');
  // the implicit weights (linear attention with V = I) are a distribution per row
  const W = performerWeights(attn, tokens(attn), 64, 1);
  for (let i = 0; i < W.rows; i++) {
    const row = W.data.subarray(i * W.cols, (i + 1) * W.cols);
    assert.ok(row.every((w) => w >= -1e-6), `row ${i} has a negative weight`);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, `row ${i} sums to 1`);
  }
  assert.equal(misplaced(W, W), 0);
});

test('the kernel computes the window in whole tiles: windowTiles counts the tiles that hold a visible pair', () => {
  assert.equal(TILE, 128);
  // the count against the mask itself: a tile is computed when any (query, key) pair in it is visible
  const brute = (n, w, global) => {
    const g = new Set(global);
    let tiles = 0;
    for (let i0 = 0; i0 < n; i0 += TILE) {
      for (let j0 = 0; j0 < n; j0 += TILE) {
        let open = false;
        for (let i = i0; i < Math.min(n, i0 + TILE) && !open; i++) {
          for (let j = j0; j < Math.min(n, j0 + TILE) && !open; j++) open = Math.abs(i - j) <= w || g.has(i) || g.has(j);
        }
        if (open) tiles++;
      }
    }
    return tiles;
  };
  for (const n of [100, 128, 300, 640, 1000]) {
    for (const w of [0, 1, 32, 127, 128, 129, 300]) {
      for (const global of [[], [0], [5, 6], [n - 1], [130, 500]].map((g) => g.filter((p) => p < n))) {
        assert.equal(windowTiles(n, w, global), brute(n, w, global), `N = ${n}, w = ${w}, global [${global}]`);
      }
    }
  }
  // what the note and the article say, at N = 16,384 and the sweep's w = 32:
  const n = 16384;
  const band = windowTiles(n, SWEEP.window);
  const blocks = n / TILE;
  assert.equal(band, 3 * blocks - 2, 'three tiles of keys per block of queries (two at the ends)');
  assert.equal(Math.round((band * TILE * TILE) / n), 382, 'about 382 keys scored per query');
  assert.equal(2 * SWEEP.window + 1, 65, 'of which the window keeps 65');
  assert.equal((band / blocks ** 2).toFixed(3), '0.023', "0.023 of full attention's tiles");
  assert.equal((65 / n).toFixed(3), '0.004', 'not (2w+1)/N');
  // a global token: its block's row of tiles and its tile's column (the band had 2 of each at the ends, 3 inside)
  for (const g of [0, 1, 8000, n - 1]) {
    const edge = g < TILE || g >= n - TILE;
    assert.equal(windowTiles(n, SWEEP.window, [g]) - band, 2 * (blocks - (edge ? 2 : 3)), `global ${g}`);
  }
  assert.equal(pct(windowTiles(n, SWEEP.window, [0]) / band - 1), '66%', 'about two-thirds more work');
  // a second global token in the same block costs nothing more; in another block, as much again
  assert.equal(windowTiles(n, SWEEP.window, [0, 1]), windowTiles(n, SWEEP.window, [0]));
  assert.ok(windowTiles(n, SWEEP.window, [0, 8000]) - windowTiles(n, SWEEP.window, [0]) > 240);
});

test('the note counts operations as the article and the cost figure do: multiply-adds, 2N^2d for full attention', () => {
  const note = translator(strings.en, 'en')('note', {});
  assert.match(note, /\$2N\^2d\$ multiply-adds/);
  assert.match(note, /\$2N\(2w\+1\)d\$/);
  assert.match(note, /\$4Nmd\$ multiply-adds/);
  assert.doesNotMatch(note, /4N\^2d|4N\(2w/, 'flop counts beside multiply-add counts');
  assert.match(translator(costStrings.en, 'en')('note', {}), /2 N\u00b2 d multiply-adds/);
  const article = readFileSync(new URL('../../../web/article.html', import.meta.url), 'utf8');
  assert.match(article, /data-tex="2N\^2d">2 N\^2 d<\/span> multiply-adds/);
  assert.match(translator(strings.zh, 'zh')('note', {}), /\$2N\^2d\$ 次乘加/);
});

test('slope reads the exponent of a power law', () => {
  const pts = (e) => [256, 512, 1024, 4096].map((n) => ({ n, ms: 3e-6 * n ** e }));
  for (const e of [1, 2, 0.5]) assert.ok(Math.abs(slope(pts(e)) - e) < 1e-9);
  assert.ok(Number.isNaN(slope(pts(1).slice(0, 1))), 'one point has no slope');
});

// A fake engine whose calls "take" ms in proportion to each mechanism's work, on a fake clock.
function fakeEngine() {
  const c = { t: 0 };
  const work = (n, opts) => (opts?.window !== undefined || opts?.features ? n / 256 : (n / 256) ** 2);
  c.clock = () => c.t;
  c.engine = {
    memoryPeak: () => 1,
    attention: (X, _K, _V, opts) => { c.t += work(X.rows, opts); },
    linearAttention: (X, _K, _V, opts) => { c.t += work(X.rows, opts); },
  };
  return c;
}

test('the sweep reports the slopes of the times it measures, and stops within its cap and budget', () => {
  const { clock, engine: fake } = fakeEngine();
  const results = [...sweep(fake, { maxN: 16384, budgetMs: 1e9, runCapMs: 100, now: clock })];
  const by = (m) => results.filter((r) => r.mechanism === m && !r.skipped);
  // full at 4096 would take 64 x 4 = 256 ms > the 100 ms cap
  assert.deepEqual(by('full').map((r) => r.n), [256, 512, 1024, 2048]);
  assert.deepEqual(results.find((r) => r.mechanism === 'full' && r.skipped), { mechanism: 'full', n: 4096, skipped: 'skipRunTime', predictedMs: 256 });
  assert.equal(by('window').at(-1).n, 16384);
  assert.ok(Math.abs(slope(by('full')) - 2) < 1e-9 && Math.abs(slope(by('window')) - 1) < 1e-9 && Math.abs(slope(by('linear')) - 1) < 1e-9);
  assert.deepEqual(EXPONENT, { full: 2, window: 1, linear: 1 });
  const tight = [...sweep(fake, { maxN: 65536, budgetMs: 50, runCapMs: 1e9, now: clock })];
  assert.ok(tight.some((r) => r.skipped === 'skipBudget'));
});

test('memory of every mechanism grows like N d: beyond the inputs and output, a workspace that does not grow', () => {
  const d = 32; // the sweep's width
  for (const mechanism of ['full', 'window', 'linear']) {
    // Q = K = V = X are copied in apart, and the output out: 16 bytes per element of N x d
    const extra = [1024, 2048, 4096, 8192].map((n) => measure(attn, mechanism, n).bytes - 16 * n * d);
    assert.ok(extra.every((e) => e === extra[0]), `${mechanism}: bytes beyond the inputs and output ${extra}`);
    assert.ok(extra[0] > 0 && extra[0] < 2 ** 20, `${mechanism}: workspace ${extra[0]} bytes`);
  }
  assert.equal(attn.memoryInUse(), 0);
});

test('the global attribute is read leniently: positions in range, once each, sorted; typed, from 1, with what names no token', () => {
  assert.deepEqual(parseGlobal('5, 0,5,x,-1,40,3.5, 31'), [0, 5, 31]);
  assert.deepEqual(parseGlobal(''), []);
  assert.deepEqual(parseGlobal(null), []);
  assert.deepEqual(readGlobal('1, 21 32,0 33 x', 1), { positions: [0, 20, 31], ignored: ['0', '33', 'x'] });
});

test('full attention on every core: after each N\'s full run, the same call through a pool, stopped by the sweep\'s rules', async () => {
  const c = fakeEngine();
  const { clock, engine: fake } = c;
  const pool = { workers: 2, attention: async (X) => { c.t += (X.rows / 256) ** 2 / 2; } };
  const results = [];
  for await (const r of sweepWithCores(fake, pool, { maxN: 16384, budgetMs: 1e9, runCapMs: 100, now: clock })) results.push(r);
  const cores = results.filter((r) => r.mechanism === CORES);
  for (const r of cores) assert.deepEqual(results[results.indexOf(r) - 1].mechanism, 'full');
  assert.deepEqual(cores.filter((r) => !r.skipped).map((r) => [r.n, r.cores, r.ms]), [256, 512, 1024, 2048].map((n) => [n, 2, (n / 256) ** 2 / 2]));
  assert.deepEqual(cores.at(-1), { mechanism: CORES, n: 4096, skipped: 'skipRunTime', predictedMs: 256 }); // as full's
});
