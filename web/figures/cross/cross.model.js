// cross.model.js: cross-attention in translation. The decoder's words ask
// (queries), the encoder's words answer (keys and values), so the weights
// form an alignment between the two sentences, reordering included.
//
// A toy: each word is a one-hot "meaning" feature (what a trained model
// would learn; both languages share the meanings) plus two features for its
// relative place in its sentence, so that two words of the same meaning
// (the two "the"s) are told apart by where they stand. One head; W^Q weighs
// meaning 1 and place POSITION_WEIGHT, W^K = W^V = W^O = I. The gain is 1/T.
//
// The meanings come from `align`: every distinct source word is a meaning,
// and target word i means what source word align[i] means. A page's own
// example gives the same three things (parseExample).
import { fromRows, identity, row, toRows, zeros } from '../../kit/mat.js';
import { ExampleError } from '../../kit/example.js';

// Each pair: source (encoder) words, target (decoder) words, and for every
// target word the index of the source word it means. The words are the
// example's content, not the interface, so they stay as written in every language.
export const PAIRS = {
  'en-fr': {
    source: ['the', 'agreement', 'on', 'the', 'European', 'Economic', 'Area', 'was', 'signed', 'in', 'August', '1992'],
    target: ['l\u2019', 'accord', 'sur', 'la', 'zone', '\u00e9conomique', 'europ\u00e9enne', 'a', '\u00e9t\u00e9', 'sign\u00e9', 'en', 'ao\u00fbt', '1992'],
    align: [0, 1, 2, 3, 6, 5, 4, 7, 7, 8, 9, 10, 11],
  },
  'en-de': {
    source: ['I', 'saw', 'the', 'film', 'yesterday'],
    target: ['ich', 'habe', 'den', 'Film', 'gestern', 'gesehen'],
    align: [0, 1, 2, 3, 4, 1], // German splits "saw" into "habe ... gesehen"; both look back at it
  },
  'en-fr-short': {
    source: ['the', 'black', 'cat', 'sleeps'],
    target: ['le', 'chat', 'noir', 'dort'],
    align: [0, 2, 1, 3],
  },
};
export const POSITION_WEIGHT = 1;
export const MAX_WORDS = 16; // per sentence: the lines and the matrix stay readable
export const MAX_WORD_LENGTH = 16; // characters of one word (the matrix sizes its labels for text of average width)

// Meaning ids: source word s has meaning of its first occurrence's word.
function meanings(pair) {
  const ids = new Map();
  const src = pair.source.map((w) => {
    if (!ids.has(w)) ids.set(w, ids.size);
    return ids.get(w);
  });
  return { src, tgt: pair.align.map((s) => src[s]), count: ids.size };
}

function embed(ids, count) {
  const n = ids.length;
  return fromRows(ids.map((id, p) => {
    const v = new Array(count + 2).fill(0);
    v[id] = 1;
    const angle = (Math.PI / 2) * (n > 1 ? p / (n - 1) : 0);
    v[count] = Math.cos(angle);
    v[count + 1] = Math.sin(angle);
    return v;
  }));
}

function words(data, side) {
  const list = data[side];
  if (!Array.isArray(list)) throw new ExampleError('exampleWords', { side });
  if (list.length < 1 || list.length > MAX_WORDS) throw new ExampleError('exampleCount', { side, max: MAX_WORDS, got: list.length });
  list.forEach((w, index) => {
    if (typeof w !== 'string' || w.trim() === '') throw new ExampleError('exampleWord', { side, index });
    if ([...w].length > MAX_WORD_LENGTH) throw new ExampleError('exampleLong', { side, index, max: MAX_WORD_LENGTH });
  });
  return list.slice();
}

/**
 * A page's example -> {source, target, align}, or an ExampleError:
 * {"source": [words], "target": [words], "align": [for each target word,
 * the index (from 0) of the source word it translates]}.
 */
export function parseExample(data) {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ExampleError('exampleObject');
  const source = words(data, 'source');
  const target = words(data, 'target');
  const { align } = data;
  if (!Array.isArray(align) || align.length !== target.length) {
    throw new ExampleError('exampleAlignLength', { want: target.length, got: Array.isArray(align) ? align.length : 0 });
  }
  align.forEach((a, index) => {
    if (!Number.isInteger(a) || a < 0 || a >= source.length) throw new ExampleError('exampleAlignIndex', { index, max: source.length - 1 });
  });
  return { source, target, align: align.slice() };
}

/**
 * A pair (PAIRS' form) -> what does not change with the temperature: the
 * encoder's and decoder's inputs and the identity weights.
 */
export function crossSetup(pair) {
  const m = meanings(pair);
  const d = m.count + 2;
  return { pair, d, count: m.count, Xenc: embed(m.src, m.count), Xdec: embed(m.tgt, m.count), I: identity(d) };
}

/**
 * A pair (a name of PAIRS or a pair itself, or crossSetup's result) and a
 * temperature -> {source, target, weights (target x source), output,
 * argmax, align, focus(i)}.
 */
export function crossModel(attn, { pair = 'en-fr', temperature = 0.1, setup } = {}) {
  const st = setup ?? crossSetup(typeof pair === 'string' ? PAIRS[pair] ?? PAIRS['en-fr'] : pair);
  const { d, count, Xenc, Xdec, I } = st;
  const gain = Math.sqrt(d) / temperature; // undo the kernel's 1/sqrt(d)
  const Wq = zeros(d, d);
  for (let f = 0; f < d; f++) Wq.data[f * d + f] = gain * (f < count ? 1 : POSITION_WEIGHT);
  const r = attn.multiHeadAttention(Xdec, Xenc, { heads: 1, Wq, Wk: I, Wv: I, Wo: I });
  const W = r.weights[0];
  const argmax = toRows(W).map((w) => w.indexOf(Math.max(...w)));
  const p = st.pair;
  return { source: p.source, target: p.target, align: p.align, Xenc, Xdec, weights: W, output: r.output, argmax, focus: (i) => row(W, i) };
}
