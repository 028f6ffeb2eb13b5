// cross.model.js: cross-attention in translation. The decoder's words ask
// (queries), the encoder's words answer (keys and values), so the weights
// form an alignment between the two sentences, reordering included.
//
// A toy: each word is a one-hot "meaning" feature (what a trained model
// would learn; both languages share the meanings) plus two features for its
// relative place in its sentence, so that two words of the same meaning
// (the two "the"s) are told apart by where they stand. One head; W^Q weighs
// meaning 1 and place POSITION_WEIGHT, W^K = W^V = W^O = I. The gain is 1/T.
import { fromRows, identity, row, toRows, zeros } from './mat.js';

// Each pair: source (encoder) words, target (decoder) words, and for every
// target word the meaning it shares with a source word.
export const PAIRS = {
  'en-fr': {
    label: 'English \u2192 French',
    source: ['the', 'agreement', 'on', 'the', 'European', 'Economic', 'Area', 'was', 'signed', 'in', 'August', '1992'],
    target: ['l\u2019', 'accord', 'sur', 'la', 'zone', '\u00e9conomique', 'europ\u00e9enne', 'a', '\u00e9t\u00e9', 'sign\u00e9', 'en', 'ao\u00fbt', '1992'],
    align: [0, 1, 2, 3, 6, 5, 4, 7, 7, 8, 9, 10, 11], // source index each target word means
  },
  'en-de': {
    label: 'English \u2192 German',
    source: ['I', 'saw', 'the', 'film', 'yesterday'],
    target: ['ich', 'habe', 'den', 'Film', 'gestern', 'gesehen'],
    align: [0, 1, 2, 3, 4, 1], // German splits "saw" into "habe ... gesehen"; both look back at it
  },
  'en-fr-short': {
    label: 'English \u2192 French (short)',
    source: ['the', 'black', 'cat', 'sleeps'],
    target: ['le', 'chat', 'noir', 'dort'],
    align: [0, 2, 1, 3],
  },
};
export const POSITION_WEIGHT = 1;

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

/** pair name, temperature -> {source, target, weights (target x source), output, argmax, align}. */
export function crossModel(attn, { pair = 'en-fr', temperature = 0.1 } = {}) {
  const p = PAIRS[pair] ?? PAIRS['en-fr'];
  const m = meanings(p);
  const d = m.count + 2;
  const Xenc = embed(m.src, m.count);
  const Xdec = embed(m.tgt, m.count);
  const gain = Math.sqrt(d) / temperature; // undo the kernel's 1/sqrt(d)
  const Wq = zeros(d, d);
  for (let f = 0; f < d; f++) Wq.data[f * d + f] = gain * (f < m.count ? 1 : POSITION_WEIGHT);
  const I = identity(d);
  const r = attn.multiHeadAttention(Xdec, Xenc, { heads: 1, Wq, Wk: I, Wv: I, Wo: I });
  const W = r.weights[0];
  const argmax = toRows(W).map((w) => w.indexOf(Math.max(...w)));
  return { source: p.source, target: p.target, align: p.align, Xenc, Xdec, weights: W, output: r.output, argmax, focus: (i) => row(W, i) };
}
