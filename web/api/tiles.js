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

// The pick depends on the JavaScript engine and the CPU alone, so it is
// timed once per realm (page, worker, Node process): a later instance would
// run code V8 has optimized already (it shares compiled code between the
// instances of the same bytes) and see no speed-up.
let picking = null;

/**
 * Sets `tiles` ('2x16' or '6x8') on `ex`, or for 'auto' the realm's pick
 * (pickTiles, the first time); resolves to the tile set.
 */
export async function useTiles(ex, tiles) {
  const name = tiles === 'auto' ? await (picking ??= pickTiles(ex).catch(() => '2x16')) : tiles;
  ex.attn_set_gemm_tiles(TILES[name]);
  return name;
}

// The product timed: the fused kernel's Q K^T at d = 64, 384 queries (whole
// 6 x 8 tiles) by 256 keys, 12.6 MFLOP (~0.2 ms where compiled well): large
// enough that packing the keys, the same work under either tile, does not
// hide the difference. Round 0 runs a quarter of the rows.
const M = 384, K = 64, N = 256, M0 = M / 4;
const ROUNDS = 12; // at most; then the default stays
// Round 1 starts long enough after round 0, which asks V8 for optimized
// code, for its compiler to finish in the background; the page runs
// between rounds.
const FIRST_GAP_MS = 20, GAP_MS = 4;
// Where an engine keeps 6 x 8 in registers it wins by 5-10%, where not it
// loses by half: within a coarse clock's step of a tie, it is the first kind.
const TIE = 1.02;

/**
 * Times both tiles of `ex` in short rounds, a block of products per tile
 * with a wait between rounds, until each tile's fastest block stops
 * improving, and returns the faster one's name. V8 first runs baseline code
 * (which favours 6 x 8 even where its optimized code is twice as slow) and
 * optimizes in the background: 6x8 wins (or ties, within 2%) only once the
 * products run at least twice as fast as round 0 ran them, so a pick is
 * never made on baseline code. Round 0 runs at once, before the caller's
 * first call: a caller's own products, made right after loading, would have
 * V8 optimize them before a later round 0, and no speed-up would show. Each
 * round leaves the engine's tile (2x16) set and frees what it took. `now`
 * and `wait` are the clock and the pause (performance.now, setTimeout).
 */
export async function pickTiles(ex, { now = () => performance.now(), wait = (ms) => new Promise((r) => setTimeout(r, ms)) } = {}) {
  // Round 0: one 2x16 product on the code the engine has before any call
  // (the first call also compiles it: slower still, and still not optimized).
  const first = withProduct(ex, M0, (product) => {
    ex.attn_set_gemm_tiles(TILES['2x16']);
    const t0 = now();
    product();
    return ((now() - t0) * M) / M0; // as if of M rows
  });
  if (first === null) return '2x16';
  const times = { '2x16': [], '6x8': [] };
  let blockMs = 0;
  for (let round = 1; round < ROUNDS; round++) {
    await wait(round === 1 ? FIRST_GAP_MS : GAP_MS);
    blockMs ||= Math.min(2, Math.max(0.5, 20 * tick(now))); // +-5% of a block at the clock's resolution
    const fit = withProduct(ex, M, (product) => {
      for (const name of round % 2 ? ['6x8', '2x16'] : ['2x16', '6x8']) {
        ex.attn_set_gemm_tiles(TILES[name]);
        const t0 = now();
        let n = 0, t;
        do {
          product();
          n++;
        } while ((t = now() - t0) < blockMs);
        times[name].push(t / n);
      }
    });
    if (fit === null) return '2x16';
    if (TILE_NAMES.every((name) => settled(times[name]))) {
      const [t2, t6] = TILE_NAMES.map((name) => best(times[name]));
      return first >= 2 * t2 && t6 <= TIE * t2 ? '6x8' : '2x16';
    }
  }
  return '2x16';
}

// f(product)'s result, run with an m x K by K x N product's arrays in wasm
// memory, then 2x16 set back and the arrays freed; null if they do not fit.
function withProduct(ex, m, f) {
  const a = ex.attn_alloc(4 * m * K) >>> 0, b = ex.attn_alloc(4 * K * N) >>> 0, c = ex.attn_alloc(4 * m * N) >>> 0;
  try {
    if (!a || !b || !c) return null;
    new Float32Array(ex.memory.buffer, a, m * K).fill(0.5);
    new Float32Array(ex.memory.buffer, b, K * N).fill(0.25);
    return f(() => ex.attn_matmul(c, a, b, m, K, N, 0));
  } finally {
    ex.attn_set_gemm_tiles(TILES['2x16']);
    [a, b, c].forEach((p) => p && ex.attn_free(p));
  }
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
