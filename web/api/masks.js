// masks.js: the masks every attention call shares (additive mask, key
// padding, causal, sliding window with global tokens), validated for
// n_q x n_k, and written into wasm as the C struct attn_masks (its layout
// comes from the module: layout.js).
import { expectShape, isArrayLike, toFlag, toMatrix } from './check.js';

function toPadding(x, n_k) {
  if (!isArrayLike(x)) {
    throw new TypeError(`keyPaddingMask must be an array of ${n_k} flags (1 = padding)`);
  }
  if (x.length !== n_k) throw new RangeError(`keyPaddingMask has ${x.length} flags, expected one per key (${n_k})`);
  const out = new Uint8Array(n_k);
  for (let j = 0; j < n_k; j++) {
    const v = x[j];
    if (v !== 0 && v !== 1 && v !== true && v !== false) {
      throw new TypeError(`keyPaddingMask[${j}] is ${String(v)}; use 1/true for padding, 0/false to keep`);
    }
    out[j] = v ? 1 : 0;
  }
  return out;
}

const absent = (x) => x === undefined || x === null;

// The window w: query i sees key j when |i - j| <= w. Any w past the last
// position is the same as none, so it is capped at int32 for the C struct.
function toWindow(w) {
  if (typeof w !== 'number') throw new TypeError(`window must be a number (keys each side a query sees), got ${typeof w}`);
  if (!Number.isInteger(w) || w < 0) throw new RangeError(`window must be an integer >= 0, got ${w}`);
  return Math.min(w, 2 ** 31 - 1);
}

// Global positions, sorted for the C side's binary searches; each must be a
// query or key position (< max(n_q, n_k)) and given once.
function toGlobal(x, n) {
  if (!isArrayLike(x)) throw new TypeError('globalTokens must be an array of positions (integers)');
  const out = new Int32Array(x.length);
  for (let g = 0; g < x.length; g++) {
    const p = x[g];
    if (typeof p !== 'number') throw new TypeError(`globalTokens[${g}] is ${typeof p}, expected a position (integer)`);
    if (!Number.isInteger(p) || p < 0 || p >= n) {
      throw new RangeError(`globalTokens[${g}] is ${p}, expected an integer position in 0..${n - 1}`);
    }
    out[g] = p;
  }
  out.sort();
  for (let g = 1; g < out.length; g++) {
    if (out[g] === out[g - 1]) throw new RangeError(`globalTokens lists position ${out[g]} twice`);
  }
  return out;
}

/** The mask options of `opts`, checked for n_q queries and n_k keys. */
export function toMasks(opts, n_q, n_k) {
  const mask = absent(opts.mask) ? null : toMatrix(opts.mask, 'mask', { allowMinusInf: true });
  if (mask) expectShape(mask, 'mask', n_q, n_k, 'one additive term per query and key');
  const padding = absent(opts.keyPaddingMask) ? null : toPadding(opts.keyPaddingMask, n_k);
  const window = absent(opts.window) ? null : toWindow(opts.window);
  let global = null;
  if (!absent(opts.globalTokens)) {
    if (window === null) throw new TypeError('globalTokens needs a window: global positions are the ones exempt from it');
    global = toGlobal(opts.globalTokens, Math.max(n_q, n_k));
  }
  return { mask, padding, causal: toFlag(opts.causal, 'causal', false), window, global };
}

/**
 * Copies checked masks into `arena`; returns a pointer to attn_masks, or 0
 * (NULL) for none. `first`, when given, is the position of query row 0 (a
 * block of a call's rows run alone: rowMasks), 0 otherwise.
 */
export function putMasks(arena, { mask, padding, causal, window, global, first = 0 }) {
  if (!mask && !padding && !causal && window === null) return 0;
  const hasGlobal = global !== null && global.length > 0;
  return arena.struct('attn_masks', {
    add: arena.input(mask),
    key_padding: padding ? arena.put(padding) : 0,
    causal: causal ? 1 : 0,
    has_window: window === null ? 0 : 1,
    window: window ?? 0,
    global: hasGlobal ? arena.put(global) : 0,
    n_global: hasGlobal ? global.length : 0,
    ...(first ? { first_query: first } : {}),
  });
}

/**
 * The masks of rows a .. b-1 of a call with n_k keys, to run alone (and
 * give those rows' very bits: attn_masks.first_query): the additive mask's
 * rows (a copy, to post to a worker), the window and causal from position
 * a, the global positions that are keys or queries of these rows (the
 * others change nothing for them).
 */
export function rowMasks(masks, a, b, n_k) {
  const { mask, global } = masks;
  return {
    ...masks,
    mask: mask && { ...mask, rows: b - a, data: mask.data.slice(a * n_k, b * n_k) },
    global: global && global.filter((p) => p < Math.max(b, n_k)),
    first: a,
  };
}
