// masks.js: the masks every attention call shares (additive mask, key
// padding, causal), validated for n_q x n_k, and written into wasm as the C
// struct attn_masks. The one place that knows that struct's layout.
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

/** The mask options of `opts`, checked for n_q queries and n_k keys. */
export function toMasks(opts, n_q, n_k) {
  const mask = opts.mask === undefined || opts.mask === null ? null
    : toMatrix(opts.mask, 'mask', { allowMinusInf: true });
  if (mask) expectShape(mask, 'mask', n_q, n_k, 'one additive term per query and key');
  const padding = opts.keyPaddingMask === undefined || opts.keyPaddingMask === null ? null
    : toPadding(opts.keyPaddingMask, n_k);
  return { mask, padding, causal: toFlag(opts.causal, 'causal', false) };
}

/** Copies checked masks into `arena`; returns a pointer to attn_masks, or 0 (NULL) for none. */
export function putMasks(arena, { mask, padding, causal }) {
  if (!mask && !padding && !causal) return 0;
  // attn_masks {const float *add; const uint8_t *key_padding; int causal}
  return arena.words([arena.input(mask), padding ? arena.put(padding) : 0, causal ? 1 : 0]);
}
