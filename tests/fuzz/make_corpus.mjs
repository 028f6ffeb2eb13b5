// make_corpus.mjs: writes the seed corpus of the libFuzzer harnesses,
// tests/fuzz/corpus/<harness>/<name>. Run from anywhere:
//   node tests/fuzz/make_corpus.mjs
// Each seed is a few header bytes in the layout documented at the top of
// the harness (flags, sizes, scale) and, for some, a little data; data past
// the end of a seed comes from a generator seeded by the input, so the seeds
// stay tiny. The byte codes below mirror the decoders in fuzz_common.h.
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// fz_size: 1..24 directly; tile edges and bad values by table index
const EDGE = [31, 32, 33, 63, 64, 65, 127, 128, 129, 130, 255, 256, 257, 300, 4, 8];
const BAD = { 0: 240, '-1': 241, INT_MIN: 244 };
const HUGE = 248; // INT_MAX
function size(v) {
  if (typeof v === 'string') return BAD[v];
  if (v >= 1 && v <= 24) return v - 1;
  const i = EDGE.indexOf(v);
  if (i < 0) throw new Error(`size ${v} has no code`);
  return 224 + i;
}
// fz_float: multiples of 1/16 in [-6.25, 6.1875] are 100 + 16 v
const f = (v) => {
  const b = 100 + Math.round(v * 16);
  if (b < 0 || b >= 200) throw new Error(`float ${v} has no one-byte code`);
  return b;
};
const floats = (vs) => vs.map(f);
// fz_scale: b / 32 for 11 <= b < 128; 128.. is 1/sqrt(d_k); low codes special
const SCALE = { zero: 0, nan: 3, inf: 4, tiny: 6, max: 7, one: 32, half: 16, sqrt: 128 };
const BLOCKED = 0; // softmax entry byte < 48 is -inf
const entry = (v) => [48, f(v)]; // softmax entry byte >= 48, then the float

const seeds = {
  matmul: {
    // [flags: null(2) | tb<<2 | extreme<<3, m, k, n, data]
    'plain-3x5x4': [0, size(3), size(5), size(4), ...floats([1, -2, 0.5, 3, -1, 2, 0.25])],
    'transposed-4x4x4': [4, size(4), size(4), size(4), ...floats([1, 1, -1, 2, 0.5])],
    'deep-k257': [4, size(2), size(257), size(9)],
    'wide-n33-extreme': [8, size(5), size(3), size(33), 210, 211, 204, 214],
    'bad-m0': [0, size('0'), size(3), size(3)],
    'null-A': [2, size(2), size(2), size(2)],
    'huge': [0, HUGE, HUGE, size(2)],
  },
  softmax_rows: {
    // [flags: null(2) | in_place<<2 | extreme<<3, rows, cols, T, entries]
    'rows2x5': [0, size(2), size(5), SCALE.one, ...[1, -2, 0.5, 3, 0, 6, -6, 2, 2, 1].flatMap(entry)],
    'blocked-row': [0, size(2), size(3), SCALE.half, BLOCKED, BLOCKED, BLOCKED, ...entry(1), BLOCKED, ...entry(1)],
    'tiny-temperature': [0, size(1), size(8), SCALE.tiny, ...[1, 3, 3, -1, 2, 0, 0.5, 2.5].flatMap(entry)],
    'in-place-3x129': [4, size(3), size(129), SCALE.one],
    'extreme-values': [8, size(2), size(4), SCALE.one, 48, 210, 48, 211, 48, 212, 48, 213],
    'bad-temperature': [0, size(2), size(2), SCALE.nan],
  },
  positional_encoding: {
    // [flags: null | long_n<<1, n (or two bytes), d]
    'n17-d8': [0, size(17), size(8)],
    'odd-d': [0, size(5), size(7)],
    'n4096-d64': [2, 0x10, 0x00, size(64)],
    'null': [1, size(3), size(3)],
    'bad-d': [0, size(3), size('-1')],
  },
  attention: {
    // [flags: null(3) | ws_null<<3 | weights<<4 | extreme<<5,
    //  masks: causal | padding<<1 | additive<<2 | none<<3 | window<<5 | malformed<<6,
    //  n_q, n_k, d_k, d_v, scale, data]
    'weights-no-masks': [16, 8, size(3), size(5), size(4), size(2), SCALE.sqrt, ...floats([1, -1, 0.5, 2, 0, 1])],
    'fused-all-masks-129-keys': [0, 7, size(9), size(129), size(8), size(5), SCALE.sqrt],
    'weights-causal-padding': [16, 3, size(7), size(7), size(4), size(4), SCALE.half],
    'fused-additive-65x257': [0, 4, size(65), size(257), size(3), size(4), SCALE.one],
    'fused-no-workspace': [8, 8, size(2), size(3), size(4), size(4), SCALE.one],
    'bad-scale': [16, 8, size(2), size(3), size(4), size(4), SCALE.zero],
    'bad-size': [0, 8, size(2), size('0'), size(4), size(4), SCALE.one],
    'extreme-data': [48, 4, size(4), size(8), size(4), size(4), SCALE.max, 210, 211, 212, 213, 214, 215, 216],
    // masks bit 5: a window, then its global positions (fz_window): window
    // byte (< 224: w = b % 16), count, positions (< 200: ascending steps)
    'window-1-globals-0-3': [16, 32, size(5), size(5), size(1), size(1), SCALE.one,
      ...floats([1, -1, 0.5, 2, 0, 1, 0, -2, 1, 0.5, 3, 1, -1, 2, 0]), 1, 2, 0, 2],
    'fused-window-causal-padding-300': [0, 32 | 3, size(130), size(300), size(8), size(4), SCALE.sqrt],
    'window-global-repeated': [16, 32, size(4), size(4), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]), 2, 2, 1, 210],
    'window-negative': [0, 32, size(4), size(4), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]), 229, 0],
    // count byte 0x82: two positions, the pointer NULL (ATTN_E_NULL)
    'window-global-null': [0, 32, size(4), size(4), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]), 1, 0x82, 0, 1],
    // masks bit 6: one malformed value (the byte after the window: 0 causal 2, 2 has_window 2)
    'malformed-causal-2': [16, 64 | 1, size(3), size(3), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 1, 2, 3, 1, 2, 3]), 0],
    'malformed-has-window-2': [0, 64 | 32, size(3), size(3), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 1, 2, 3, 1, 2, 3]), 1, 0, 2],
    'additive-nan': [16 | 32, 4, size(2), size(2), size(1), size(1), SCALE.one,
      ...floats([1, 2, 1, 2, 1, 2]), 200, 216, 0, 0, 0],
  },
  first_nonfinite: {
    // [flags: allow_minus_inf | null<<1, n (2 bytes, little endian), elements:
    //  < 24 special (index % 8: NaN, -NaN, +inf, -inf, FLT_MAX, -FLT_MAX, -0, 1e-45)]
    'all-finite-70': [0, 70, 0, ...Array(70).fill(f(1))],
    'nan-in-second-block': [0, 130, 0, ...Array(100).fill(f(0.5)), 0],
    'minus-inf-allowed-then-inf': [1, 65, 0, f(1), 3, f(2), 2],
    'extremes-129': [1, 129, 0, 4, 5, 6, 7, 12, 13],
    'null-empty': [2, 0, 0],
  },
  linear_attention: {
    // [flags: null(3) | ws_null<<3 | causal<<4 | extreme<<5 | given features<<6,
    //  n_q, n_k, d_k, d_v, m, scale, seed (2 bytes), data]
    'plain-5x7-m8': [0, size(5), size(7), size(4), size(3), size(8), SCALE.sqrt, 0, 1],
    'causal-130x129-m65': [16, size(130), size(129), size(8), size(4), size(65), SCALE.sqrt, 0, 2],
    'more-queries-causal': [16, size(33), size(9), size(3), size(2), size(4), SCALE.one, 1, 0],
    'given-features': [64, size(3), size(4), size(2), size(2), size(3), SCALE.one, 0, 0,
      ...floats([1, -1, 0.5, 2, 0, 1, 0, -2, 1, 0.5, 3, 1, -1, 2, 0, 1, 1, -1, 0.5, 2, 1, 0.25])],
    'causal-2-malformed': [128, size(3), size(4), size(2), size(2), size(3), SCALE.one, 0, 0],
    'extreme-data': [32, size(4), size(8), size(4), size(4), size(16), SCALE.max, 0, 3, 210, 211, 212, 213, 214, 215, 216],
    'no-workspace': [8, size(2), size(3), size(4), size(4), size(4), SCALE.one, 0, 0],
    'null-omega': [5, size(2), size(3), size(4), size(4), size(4), SCALE.one, 0, 0],
    'bad-features': [0, size(2), size(3), size(4), size(4), size('0'), SCALE.one, 0, 0],
    'bad-scale': [16, size(2), size(3), size(4), size(4), size(4), SCALE.nan, 0, 0],
    // Reproducers (exponents spread over ~100): a den that was subnormal,
    // whose 1/den overflowed; products that were subnormal, so the output
    // left the values' range; a causal query whose best features met only
    // later keys of its chunk. Fixed by the per-feature stabiliser and the
    // lift of small sums (src/linear.c).
    'repro-subnormal-den': [0, 0x80, ...Array(16).fill(0x9f), 0x03, 0x3d, 0x00, 0x5d, 0x00, 0x0f],
    'repro-subnormal-products': [0, 4, 0, 0xb6],
    'repro-causal-later-keys': [0x90, 0xe9, 0xe8, 0x10, ...Array(26).fill(0x73)],
  },
  mha: {
    // [flags: null(4) | ws_null<<4 | weights<<5 | Z<<6 | extreme<<7,
    //  masks (bits 0-3) | self<<4 | window<<5 | malformed<<6, biases bq bk bv bo (bits 0-3),
    //  n_q, n_k, d_model, heads (< 192: a divisor of d_model by index)]
    'self-8x8-2heads-causal': [96, 17, 15, size(8), size(8), size(8), 1],
    'cross-3x5-d12-3heads': [32, 8, 0, size(3), size(5), size(12), 2],
    'cross-masks-d16': [64, 6, 5, size(4), size(17), size(16), 4],
    'self-64-wide-8-heads': [0, 16 | 8, 15, size(9), size(9), size(64), 3],
    'bad-heads': [0, 8, 0, size(2), size(3), size(8), 241],
    'heads-not-dividing': [0, 8, 0, size(2), size(3), size(8), 194],
    'no-workspace': [16, 8, 0, size(2), size(3), size(4), 0],
    'null-Wo': [8, 8, 0, size(2), size(3), size(4), 0],
    'self-window-globals-d8': [32, 16 | 32 | 1, 0, size(20), size(20), size(8), 1],
    'cross-window-padding-malformed': [0, 64 | 32 | 2, 0, size(5), size(9), size(4), 1],
  },
  softmax_backward: {
    // [flags: null(2) | in_place<<2 (2 bits) | extreme<<4 | from_softmax<<5, rows, cols, T, Y, dY]
    'softmax-rows-3x7': [32, size(3), size(7), SCALE.one, ...[1, -2, 0.5, 3, 0, 6, -6].flatMap(entry)],
    'blocked-and-in-place-dY': [32 | 4, size(2), size(3), SCALE.half, BLOCKED, BLOCKED, BLOCKED, ...entry(1), BLOCKED, ...entry(1)],
    'raw-y-in-place-Y-129': [8, size(2), size(129), SCALE.sqrt],
    'tiny-temperature': [32, size(1), size(8), SCALE.tiny],
    'extreme-values': [16, size(2), size(4), SCALE.max, 210, 211, 212, 213, 214, 215, 216],
    'null-dY': [3, size(2), size(2), SCALE.one],
    'bad-temperature': [0, size(2), size(2), SCALE.nan],
  },
  attention_backward: {
    // [flags: null(4) | ws_null<<4 | fused<<5 | extreme<<6,
    //  masks: causal | padding<<1 | additive<<2 | none<<3 | window<<5 | malformed<<6,
    //  n_q, n_k, d_k, d_v, scale, data: Q, K, V, dout, padding, additive, window]
    'weights-no-masks': [0, 8, size(3), size(5), size(4), size(2), SCALE.sqrt, ...floats([1, -1, 0.5, 2, 0, 1])],
    'fused-window-1-globals-0-3': [32, 32, size(5), size(5), size(1), size(1), SCALE.one,
      ...floats([1, -1, 0.5, 2, 0, 1, 0, -2, 1, 0.5, 3, 1, -1, 2, 0, 1, 0.5, -1, 2, 1]), 1, 2, 0, 2],
    'weights-window-causal-padding-300': [0, 32 | 3, size(130), size(300), size(8), size(4), SCALE.sqrt],
    'fused-window-global-null': [32, 32, size(4), size(4), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]), 1, 0x82, 0, 1],
    'fused-window-negative': [32, 32, size(4), size(4), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]), 229, 0],
    'malformed-padding': [32, 64 | 2, size(3), size(3), size(1), size(1), SCALE.one,
      ...floats([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]), 0, 1, 0, 3],
    'fused-all-masks-129-keys': [32, 7, size(9), size(129), size(8), size(5), SCALE.sqrt],
    'fused-causal-130x257': [32, 1, size(130), size(257), size(4), size(3), SCALE.sqrt],
    'weights-causal-padding': [0, 3, size(7), size(7), size(4), size(4), SCALE.half],
    'fused-additive-65x33': [32, 4, size(65), size(33), size(3), size(4), SCALE.one],
    'no-workspace': [16, 8, size(2), size(3), size(4), size(4), SCALE.one],
    'no-weights-no-lse': [9, 8, size(2), size(3), size(4), size(4), SCALE.one],
    'bad-scale': [32, 8, size(2), size(3), size(4), size(4), SCALE.zero],
    'bad-size': [0, 8, size(2), size('0'), size(4), size(4), SCALE.one],
    'extreme-data': [96, 4, size(4), size(8), size(4), size(4), SCALE.max, 210, 211, 212, 213, 214, 215, 216],
    // found by the fuzzer: keys of 1e30 make scores ~1e30, whose recomputation
    // rounds more than exp's range apart from the forward's log-sum-exp
    'fused-huge-logits-recomputed': [0x60, 0x29, 0x00, 0x04, 0x0d, 0x00, 0xd3, 0, 0, 0],
  },
  mha_backward: {
    // [flags: null(4) | ws_null<<4 | use_weights<<5 | dXkv_null<<6 | extreme<<7,
    //  masks (bits 0-3) | self<<4 | window<<5 | malformed<<6, biases (bits 0-3) | bias gradients (bits 4-7),
    //  n_q, n_k, d_model, heads (< 192: a divisor of d_model by index)]
    'self-summed-8x8-2heads-causal': [96, 17, 255, size(8), size(8), size(8), 1],
    'self-apart-fused': [0, 16 | 8, 0xf0, size(9), size(9), size(16), 3],
    'cross-3x5-d12-3heads': [32, 8, 0x0f, size(3), size(5), size(12), 2],
    'cross-masks-d16-fused': [0, 6, 0xff, size(4), size(17), size(16), 4],
    'cross-summed-is-an-error': [64, 8, 0, size(2), size(3), size(4), 0],
    'bad-heads': [0, 8, 0, size(2), size(3), size(8), 241],
    'no-workspace': [16, 8, 0, size(2), size(3), size(4), 0],
    'null-dWo': [9, 8, 0, size(2), size(3), size(4), 0],
    'self-window-globals-fused': [0, 16 | 32 | 1, 0xff, size(20), size(20), size(8), 1],
    'cross-window-additive-weights': [32, 32 | 4, 0x0f, size(6), size(11), size(4), 1],
    'cross-window-malformed': [32, 64 | 32, 0, size(3), size(5), size(4), 1],
  },
  transformer: {
    // [flags: null(3) | gpt<<3 | bad token<<4 | bad optimizer<<5 | head off<<6 | extreme<<7,
    //  vocab, context, d_model, heads (< 224: a divisor of d_model by index), layers,
    //  (with bit 3: mlp | layer_norm<<1 | a bad flag<<2 (which<<3, 2 or -1<<4)), batch, n_tokens (2 + b % context), seed (4), lr,
    //  (which optimizer setting is bad, with bit 5), then tokens]
    'd8-2layers-2heads': [0, size(9), size(8), size(8), 1, 2, size(4), 7, 0, 0, 0, 1, 25],
    'figure-size': [0, size(32), size(32), size(32), 1, 2, size(2), 31, 0, 0, 0, 1, 25],
    'no-layers': [0, size(6), size(5), size(4), 0, 0, size(3), 3, 0, 0, 0, 2, 9],
    'head-off-3-layers-3-heads': [64, size(7), size(6), size(12), 2, 3, size(2), 5, 0, 0, 0, 9, 100],
    'token-out-of-range': [16, size(5), size(4), size(4), 1, 1, size(2), 3, 0, 0, 0, 3, 50],
    'lr-nan': [32, size(5), size(4), size(4), 1, 1, size(2), 3, 0, 0, 0, 3, 50, 1],
    'mlp': [8, size(5), size(4), size(4), 1, 1, 1, size(2), 3, 0, 0, 0, 3, 50],
    'gpt-d8-2layers': [8, size(9), size(8), size(8), 1, 2, 3, size(4), 7, 0, 0, 0, 1, 25],
    'layer-norm-only-d12-3heads': [64, size(7), size(6), size(12), 2, 2, 2, size(2), 5, 0, 0, 0, 9, 100],
    'gpt-extreme': [128 | 8, size(9), size(8), size(8), 1, 2, 3, size(3), 7, 0, 0, 0, 5, 25],
    'mlp-flag-2': [8, size(5), size(4), size(4), 1, 1, 4 | 8 | 16, size(2), 3, 0, 0, 0, 3, 50],
    'null-workspace': [4, size(5), size(4), size(4), 1, 1, size(2), 3, 0, 0, 0, 3, 50],
    'extreme-parameters': [128, size(9), size(8), size(8), 1, 2, size(3), 7, 0, 0, 0, 5, 25],
    'one-token': [0, size(5), size(4), size(4), 1, 1, size(2), 241, 0, 0, 0, 3, 50],
    'heads-not-dividing': [0, size(5), size(4), size(8), 226, 1, size(2), 3, 0, 0, 0, 3, 50],
  },
};

for (const [harness, files] of Object.entries(seeds)) {
  const dir = join(here, 'corpus', harness);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) {
    for (const b of bytes) if (!(Number.isInteger(b) && b >= 0 && b < 256)) throw new Error(`${harness}/${name}: byte ${b}`);
    writeFileSync(join(dir, name), Uint8Array.from(bytes));
  }
  console.log(`${harness}: ${Object.keys(files).length} seeds`);
}
