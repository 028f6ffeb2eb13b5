// tiles.js: which register tile the matrix products run (src/gemm.c),
// picked per JavaScript engine by timing both. The relaxed build has two:
// 2 x 16 (8 accumulators) and 6 x 8 (12). Which is faster depends on the
// engine's compiler more than on the CPU: V8 up to 12 (Node 20 and 22)
// spills the 6 x 8 tile's registers and runs it at half speed, later V8
// (Node 24, Chromium 156) keeps them and runs it 5-10% faster. The results
// are the same bits either way, so the pick changes the speed alone.

/** Tile names, by their value in attn_set_gemm_tiles. */
export const TILES = Object.freeze({ '2x16': 0, '6x8': 1 });
const TILE_NAMES = Object.keys(TILES);

/**
 * Sets `tiles` ('2x16' or '6x8') on `ex`, or for 'auto' times both and sets
 * the faster (pickTiles); resolves to the tile set.
 */
export async function useTiles(ex, tiles) {
  const name = tiles === 'auto' ? await pickTiles(ex).catch(() => '2x16') : tiles;
  ex.attn_set_gemm_tiles(TILES[name]);
  return name;
}

// The product timed: the fused kernel's Q K^T at d = 64, 384 queries (whole
// 6 x 8 tiles) by 256 keys, 12.6 MFLOP (~0.2 ms where compiled well): large
// enough that packing the keys, the same work under either tile, does not
// hide the difference.
const M = 384, K = 64, N = 256;
const ROUNDS = 12; // at most; then the default stays
// Before round 0, so the caller's first calls come first; between rounds
// the page runs; after round 0, which runs V8's baseline code (and so asks
// for optimized code), long enough for its compiler to finish in the
// background.
const START_MS = 10, GAP_MS = 4, FIRST_GAP_MS = 20;
// Where an engine keeps 6 x 8 in registers it wins by 5-10%, where not it
// loses by half: within a coarse clock's step of a tie, it is the first kind.
const TIE = 1.02;

/**
 * Times both tiles of `ex` in short rounds, a block of products per tile
 * with a wait between rounds, until each tile's fastest block stops
 * improving, and returns the faster one's name. V8 first runs baseline code
 * (which favours 6 x 8 even where its optimized code is twice as slow) and
 * optimizes in the background: 6x8 wins (or ties, within 2%) only once the
 * products have become at least twice as fast as round 0 measured them, so
 * a pick is never made on baseline code. Each round leaves the engine's
 * tile (2x16) set and frees what it took. `now` and `wait` are the clock and
 * the pause (performance.now, setTimeout).
 */
export async function pickTiles(ex, { now = () => performance.now(), wait = (ms) => new Promise((r) => setTimeout(r, ms)) } = {}) {
  const blockMs = Math.min(2, Math.max(0.5, 20 * tick(now))); // +-5% of a block at the clock's resolution
  const first = {}, times = { '2x16': [], '6x8': [] };
  for (let round = 0; round < ROUNDS; round++) {
    await wait([START_MS, FIRST_GAP_MS][round] ?? GAP_MS);
    const a = ex.attn_alloc(4 * M * K) >>> 0, b = ex.attn_alloc(4 * K * N) >>> 0, c = ex.attn_alloc(4 * M * N) >>> 0;
    try {
      if (!a || !b || !c) return '2x16';
      new Float32Array(ex.memory.buffer, a, M * K).fill(0.5);
      new Float32Array(ex.memory.buffer, b, K * N).fill(0.25);
      const product = () => ex.attn_matmul(c, a, b, M, K, N, 0);
      for (const name of round % 2 ? ['6x8', '2x16'] : ['2x16', '6x8']) {
        ex.attn_set_gemm_tiles(TILES[name]);
        if (round === 0) { // a first call (which may compile), then one timed: the baseline code
          product();
          const t0 = now();
          product();
          first[name] = now() - t0;
          continue;
        }
        const t0 = now();
        let n = 0, t;
        do {
          product();
          n++;
        } while ((t = now() - t0) < blockMs);
        times[name].push(t / n);
      }
    } finally {
      ex.attn_set_gemm_tiles(TILES['2x16']);
      [a, b, c].forEach((p) => p && ex.attn_free(p));
    }
    if (TILE_NAMES.every((name) => settled(times[name]))) {
      const [t2, t6] = TILE_NAMES.map((name) => best(times[name]));
      return first['2x16'] >= 2 * t2 && t6 <= TIE * t2 ? '6x8' : '2x16';
    }
  }
  return '2x16';
}

// A tile's time is its fastest block: what else runs (a collection, the
// page, the compiler) only ever adds time. Settled: the last three rounds
// found nothing 5% faster than the rounds before them.
const best = (t) => Math.min(...t);
const settled = (t) => t.length >= 4 && best(t.slice(-3)) >= 0.95 * best(t.slice(0, -3));

// The clock's step in ms (browsers coarsen performance.now to 5-100 us).
function tick(now) {
  let step = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = now();
    let t;
    while ((t = now()) === t0);
    step = Math.min(step, t - t0);
  }
  return step;
}
