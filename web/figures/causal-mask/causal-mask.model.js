// causal-mask.model.js: masks decide which keys each query may see.
//
// A mask here is a grid of n x n cells, 1 = blocked. The kernels receive it
// as the additive mask (0 keeps, -Infinity blocks), so a blocked weight is
// exactly 0 and each row's remaining weights still sum to 1; a row with no
// key left gets all-zero weights and a zero output. `step` is how many
// tokens a decoder has produced so far: only those exist yet.
//
// A token's vector is a fixed pseudo-random embedding seeded by its text
// (the same word, the same embedding) plus the sinusoidal position encoding
// of its place, so a page's own tokens (parseExample) go through the same
// head as the figure's.
import { normalMatrix } from '../../kit/random.js';
import { zeros } from '../../kit/mat.js';
import { ExampleError } from '../../kit/example.js';

// The figure's own example: content, not interface, in every language.
export const TOKENS = ['<s>', 'the', 'cat', 'sat', 'on', 'the', 'mat', '<pad>'];
export const N = TOKENS.length;
export const PAD = '<pad>';
export const MIN_TOKENS = 2;
export const MAX_TOKENS = 10;
export const MAX_TOKEN_LENGTH = 16; // characters: longer labels would crowd the matrices
const D = 8;
export const WINDOW = 3; // the sliding window sees itself and two tokens back

const RULES = {
  none: () => false,
  causal: (i, j) => j > i,
  padding: (i, j, tokens) => tokens[j] === PAD,
  'causal+padding': (i, j, tokens) => j > i || tokens[j] === PAD,
  window: (i, j) => j > i || j <= i - WINDOW,
};
export const PRESETS = [...Object.keys(RULES), 'custom'];

/** The cells of a named preset over `tokens`: a string of n*n '0'/'1', row-major. */
export function presetCells(name, tokens = TOKENS) {
  const rule = RULES[name] ?? RULES.none;
  const n = tokens.length;
  let out = '';
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out += rule(i, j, tokens) ? '1' : '0';
  return out;
}

const causalOf = (n) => presetCells('causal', Array(n).fill(''));
const sizeOf = (text) => (typeof text === 'string' && /^[01]+$/.test(text) ? Math.sqrt(text.length) : 0);

/** Cells from an attribute for `n` tokens: a string of n*n 0/1, else the causal cells. */
export const parseCells = (text, n = N) => (sizeOf(text) === n ? text : causalOf(n));

/** The canonical cells attribute: any square of 0/1 up to MAX_TOKENS, '' for causal cells or anything else. */
export const normalizeCells = (text) => readCells(text) ?? '';

/** normalizeCells, but null for text that is neither empty nor such a square (what the cells attribute cannot use). */
export function readCells(text) {
  if (text === '') return '';
  const n = sizeOf(text);
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_TOKENS)) return null;
  return text !== causalOf(n) ? text : '';
}

/** The cells (of n x n) with (i, j) flipped. */
export const flip = (cells, i, j, n = N) => cells.slice(0, i * n + j) + (cells[i * n + j] === '1' ? '0' : '1') + cells.slice(i * n + j + 1);

/**
 * A page's tokens -> a list of strings, or an ExampleError:
 * a JSON list of MIN_TOKENS to MAX_TOKENS non-empty strings of at most
 * MAX_TOKEN_LENGTH characters; "<pad>" marks padding.
 */
export function parseExample(data) {
  if (!Array.isArray(data)) throw new ExampleError('exampleList', { min: MIN_TOKENS, max: MAX_TOKENS });
  if (data.length < MIN_TOKENS || data.length > MAX_TOKENS) throw new ExampleError('exampleCount', { min: MIN_TOKENS, max: MAX_TOKENS, got: data.length });
  data.forEach((tok, index) => {
    if (typeof tok !== 'string' || tok.trim() === '') throw new ExampleError('exampleToken', { index });
    if ([...tok].length > MAX_TOKEN_LENGTH) throw new ExampleError('exampleLong', { index, max: MAX_TOKEN_LENGTH });
  });
  return data.slice();
}

// FNV-1a: a token's text -> the seed of its embedding
function seedOf(text) {
  let hsh = 0x811c9dc5;
  for (const ch of text) {
    hsh ^= ch.codePointAt(0);
    hsh = Math.imul(hsh, 0x01000193) >>> 0;
  }
  return hsh;
}

const embeddings = new Map();
const positions = new Map();
const WEIGHTS = Object.fromEntries(['Wq', 'Wk', 'Wv', 'Wo'].map((k, n) => [k, normalMatrix(D, D, 0xca5b + n, 0.5)]));

/** The inputs of `tokens`: each row its text's embedding plus its position's encoding. */
function inputs(attn, tokens) {
  const n = tokens.length;
  if (!positions.has(n)) positions.set(n, attn.positionalEncoding(n, D));
  const P = positions.get(n);
  const X = zeros(n, D);
  tokens.forEach((tok, i) => {
    if (!embeddings.has(tok)) embeddings.set(tok, normalMatrix(1, D, seedOf(tok)).data);
    const e = embeddings.get(tok);
    for (let c = 0; c < D; c++) X.data[i * D + c] = e[c] + P.data[i * D + c];
  });
  return X;
}

/**
 * {tokens, cells, step} -> the first `step` tokens through one head of
 * self-attention under the mask: {tokens, blocked (t x t, 1 = blocked),
 * mask, weights, output, rowSums, emptyRows}.
 */
export function causalModel(attn, { tokens = TOKENS, cells = presetCells('causal', tokens), step = tokens.length } = {}) {
  const n = tokens.length;
  const t = Math.max(1, Math.min(n, Math.round(step)));
  const blocked = zeros(t, t);
  const mask = zeros(t, t);
  for (let i = 0; i < t; i++) {
    for (let j = 0; j < t; j++) {
      const b = cells[i * n + j] === '1';
      blocked.data[i * t + j] = b ? 1 : 0;
      mask.data[i * t + j] = b ? -Infinity : 0;
    }
  }
  // positions are those of the whole sequence, so a token's vector does not change as later ones arrive
  const X = inputs(attn, tokens);
  const Xt = { rows: t, cols: D, data: X.data.slice(0, t * D) };
  const r = attn.multiHeadAttention(Xt, null, { heads: 1, ...WEIGHTS, mask });
  const weights = r.weights[0];
  const rowSums = Array.from({ length: t }, (_, i) => weights.data.subarray(i * t, (i + 1) * t).reduce((a, b) => a + b, 0));
  const emptyRows = rowSums.map((_, i) => i).filter((i) => blocked.data.subarray(i * t, (i + 1) * t).every((b) => b === 1));
  return { tokens: tokens.slice(0, t), blocked, mask, weights, output: r.output, rowSums, emptyRows };
}
