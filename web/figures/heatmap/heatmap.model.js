// heatmap.model.js: the data of the attention-heatmap viewer.
//
// parseHeatmap reads anyone's attention weights (JSON text or an object):
//   {"tokens": [...], "keyTokens": [...]?, "attention": A}
// where A is layers x heads x queries x keys (a 5-D array with a batch of 1
// in second place, as Hugging Face's `outputs.attentions` gives it, is read
// too; so are heads x queries x keys and queries x keys). Everything is
// checked, and a problem comes back as {key, args} naming the place (a key of
// heatmap.strings.en.js, so the figure says it in the reader's language), never
// as an exception. demoModel computes a small two-layer model live with the
// kernels, with heads that can be switched off.
import { zeros, put, toRows } from '../../kit/mat.js';
import { grouped } from '../../kit/format.js';

export const LIMITS = { chars: 5_000_000, tokens: 512, heads: 1024, numbers: 4_000_000, tokenChars: 200 };

const fail = (key, args = {}) => ({ ok: false, error: { key, args } });
const problem = (key, args = {}) => ({ key, args });
const depth = (a) => (Array.isArray(a) ? 1 + depth(a[0]) : 0);

function tokenList(value, name) {
  if (!Array.isArray(value)) return problem('tokensNotArray', { name });
  if (value.length === 0) return problem('tokensEmpty', { name });
  if (value.length > LIMITS.tokens) return problem('tooManyTokens', { name, count: value.length, limit: LIMITS.tokens });
  const bad = value.findIndex((t) => typeof t !== 'string');
  if (bad >= 0) return problem('tokenNotString', { name, index: bad, type: typeof value[bad] });
  const long = value.findIndex((t) => t.length > LIMITS.tokenChars);
  if (long >= 0) return problem('tokenTooLong', { name, index: long, limit: LIMITS.tokenChars });
  return null;
}

// One head's matrix: nq rows of nk finite numbers in [0, 1] -> {M}, or a problem {key, args}.
function headMatrix(rows, nq, nk, where) {
  if (!Array.isArray(rows) || rows.length !== nq) return problem('rowsMismatch', { where, want: nq, got: Array.isArray(rows) ? rows.length : typeof rows });
  const M = zeros(nq, nk);
  for (let i = 0; i < nq; i++) {
    const r = rows[i];
    if (!Array.isArray(r) || r.length !== nk) return problem('valuesMismatch', { where, row: i, want: nk, got: Array.isArray(r) ? r.length : typeof r });
    for (let j = 0; j < nk; j++) {
      const v = r[j];
      if (typeof v !== 'number' || !Number.isFinite(v)) return problem('notFinite', { where, row: i, col: j, value: JSON.stringify(v) });
      if (v < 0 || v > 1 + 1e-3) return problem('outOfRange', { where, row: i, col: j, value: v });
      M.data[i * nk + j] = v;
    }
  }
  return { M };
}

/**
 * Text or object -> {ok: true, data: {tokens, keyTokens, layers, warnings}}
 * or {ok: false, error: {key, args}}; warnings are [{key, args}].
 */
export function parseHeatmap(input) {
  let obj = input;
  if (typeof input === 'string') {
    if (input.length > LIMITS.chars) return fail('tooManyChars', { chars: grouped(input.length), limit: grouped(LIMITS.chars) });
    try {
      obj = JSON.parse(input);
    } catch (err) {
      return fail('notJson', { message: err.message });
    }
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return fail('notObject');
  const tokErr = tokenList(obj.tokens, 'tokens');
  if (tokErr) return { ok: false, error: tokErr };
  const keyTokens = obj.keyTokens ?? obj.tokens;
  const keyErr = tokenList(keyTokens, 'keyTokens');
  if (keyErr) return { ok: false, error: keyErr };
  let A = obj.attention;
  if (!Array.isArray(A)) return fail('attentionNotArray');
  const dims = depth(A);
  if (dims === 5) {
    if (!A.every((l) => Array.isArray(l) && l.length === 1)) return fail('batchNotOne');
    A = A.map((l) => l[0]);
  } else if (dims === 3) A = [A];
  else if (dims === 2) A = [[A]];
  else if (dims !== 4) return fail('wrongDims', { dims });
  const [nq, nk] = [obj.tokens.length, keyTokens.length];
  const heads = A[0]?.length;
  if (!heads) return fail('noHeads');
  if (A.length * heads > LIMITS.heads) return fail('tooManyHeads', { layers: A.length, heads, limit: LIMITS.heads });
  if (A.length * heads * nq * nk > LIMITS.numbers) return fail('tooManyWeights', { millions: LIMITS.numbers / 1e6 });
  const layers = [];
  for (let l = 0; l < A.length; l++) {
    if (!Array.isArray(A[l]) || A[l].length !== heads) return fail('headsMismatch', { layer: l, heads });
    const layer = [];
    for (let hd = 0; hd < heads; hd++) {
      const r = headMatrix(A[l][hd], nq, nk, `attention[${l}][${hd}]`);
      if (!r.M) return { ok: false, error: r };
      layer.push(r.M);
    }
    layers.push(layer);
  }
  return { ok: true, data: { tokens: obj.tokens, keyTokens, layers, warnings: rowSumWarnings(layers) } };
}

function rowSumWarnings(layers) {
  for (const [l, layer] of layers.entries()) {
    for (const [hd, M] of layer.entries()) {
      for (const [i, r] of toRows(M).entries()) {
        const sum = r.reduce((a, b) => a + b, 0);
        if (sum !== 0 && Math.abs(sum - 1) > 0.01) return [problem('rowSums', { layer: l + 1, head: hd + 1, row: i + 1, sum: sum.toFixed(3) })];
      }
    }
  }
  return [];
}

// ---- the live demo: two layers, four heads, hand-set -------------------

export const DEMO_TOKENS = ['the', 'cat', 'sat', 'on', 'the', 'mat', 'because', 'it', 'was', 'tired'];
// what each demo head does, as keys of heatmap.strings.en.js
export const DEMO_HEADS = [
  ['previousWord', 'nouns', 'itself', 'firstWordIt'],
  ['afterNoun', 'previousWord', 'verbs', 'firstWordItNeeds'],
];
const KIND = { the: 'det', cat: 'noun', sat: 'verb', on: 'prep', mat: 'noun', because: 'conj', it: 'pronoun', was: 'verb', tired: 'adj' };
// feature columns of the 16-wide residual stream
const F = { cos: 0, sin: 1, first: 2, noun: 3, verb: 4, det: 5, pronoun: 6, animate: 7, afterNoun: 8, adj: 9, prep: 10, conj: 11, refAnimate: 12 };
const D = 16;
const STEP = Math.PI / 12; // angle between neighbouring positions
const SHARP = 235; // positional heads: gain that turns a 15-degree gap into a clear winner

function demoInputs() {
  const X = zeros(DEMO_TOKENS.length, D);
  DEMO_TOKENS.forEach((w, p) => {
    put(X, [[p, F.cos, Math.cos(STEP * p)], [p, F.sin, Math.sin(STEP * p)], [p, F[KIND[w]], 1]]);
    if (p === 0) put(X, [[p, F.first, 1]]);
    if (w === 'cat') put(X, [[p, F.animate, 1]]);
  });
  return X;
}

// Query and key of head `hd` (block of 4 columns) compare positions, the
// query rotated back by `shift` steps.
function positional(W, hd, shift) {
  const [c, s] = [Math.cos(-shift * STEP), Math.sin(-shift * STEP)];
  put(W.Wq, [[F.cos, 4 * hd, SHARP * c], [F.cos, 4 * hd + 1, SHARP * s], [F.sin, 4 * hd, -SHARP * s], [F.sin, 4 * hd + 1, SHARP * c]]);
  put(W.Wk, [[F.cos, 4 * hd, 1], [F.sin, 4 * hd + 1, 1]]);
}
// Every query asks head `hd` for the feature `f` with strength g.
function seek(W, hd, f, g, col = 0) {
  W.bq[4 * hd + col] = g;
  put(W.Wk, [[f, 4 * hd + col, 1]]);
}
// Head `hd` reads feature `from` of the token it attends to and writes it to feature `to`.
function carry(W, hd, from, to) {
  put(W.Wv, [[from, 4 * hd, 1]]);
  put(W.Wo, [[4 * hd, to, 1]]);
}
const empty = () => ({ Wq: zeros(D, D), Wk: zeros(D, D), Wv: zeros(D, D), Wo: zeros(D, D), bq: new Array(D).fill(0) });

function demoLayers() {
  const L1 = empty();
  positional(L1, 0, 1);
  carry(L1, 0, F.noun, F.afterNoun);
  seek(L1, 1, F.noun, 8);
  positional(L1, 2, 0);
  seek(L1, 3, F.first, 12);
  put(L1.Wq, [[F.pronoun, 13, 24]]);
  put(L1.Wk, [[F.animate, 13, 1]]);
  carry(L1, 3, F.animate, F.refAnimate);
  const L2 = empty();
  seek(L2, 0, F.afterNoun, 10);
  positional(L2, 1, 1);
  seek(L2, 2, F.verb, 8);
  seek(L2, 3, F.first, 12);
  put(L2.Wq, [[F.refAnimate, 13, 24]]);
  put(L2.Wk, [[F.animate, 13, 1]]);
  return [L1, L2];
}

/** W^O with the rows of switched-off heads zeroed: what they found no longer reaches the output. */
function silence(Wo, heads, off) {
  const out = { ...Wo, data: Wo.data.slice() };
  const rows = Wo.rows / heads;
  off.forEach((isOff, hd) => { if (isOff) out.data.fill(0, hd * rows * Wo.cols, (hd + 1) * rows * Wo.cols); });
  return out;
}

/**
 * Run the demo. off[l][h] = true switches head h of layer l off. Returns the
 * viewer's data shape: {tokens, keyTokens, layers: [[weights per head]], warnings}.
 */
export function demoModel(attn, { off = [[], []] } = {}) {
  let X = demoInputs();
  const layers = demoLayers().map((W, l) => {
    const heads = 4;
    const r = attn.multiHeadAttention(X, null, { heads, ...W, Wo: silence(W.Wo, heads, [0, 1, 2, 3].map((hd) => !!off[l]?.[hd])) });
    X = { ...X, data: X.data.map((v, k) => v + r.output.data[k]) }; // residual stream
    return r.weights;
  });
  return { tokens: DEMO_TOKENS, keyTokens: DEMO_TOKENS, layers, warnings: [] };
}
