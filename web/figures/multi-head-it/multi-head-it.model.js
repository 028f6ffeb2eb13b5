// multi-head-it.model.js: "The animal didn't cross the road because it was
// too tired / wide" with hand-set toy embeddings and weights.
//
// Every word is a vector of six named features. The layer is multi-head
// self-attention with d_model = 6, either one head of width 6 or two heads of
// width 3 (the same total width and the same 6x6 matrices). Only the row of
// "it" matters here. After the layer, a second attention step from "it" (the
// read-out) uses what "it" gathered as its query to pick a referent.
//
// Why one head blurs: "tired" and "animal" share the animate feature (that is
// what makes the adjective a clue), so a head's value projection cannot tell
// the adjective's animacy from the nouns' animacy. A single head that must
// look at both the nouns and the adjective sums them into one number. Two
// heads each keep one distribution: head 1 finds the nouns and passes on
// only "there is a noun", head 2 finds the adjective and passes on its
// animacy, and W^O writes the two into different features.
import { fromRows, put, row, zeros } from '../../kit/mat.js';
import { pcts } from '../../kit/format.js';

export const FEATURES = ['noun', 'animate', 'adjective', 'pronoun', 'role', 'other'];
const [NOUN, ANIMATE, ADJECTIVE, PRONOUN, ROLE, OTHER] = FEATURES.keys();

export const ADJECTIVES = { tired: +1, wide: -1 }; // animacy each adjective suggests
export const IT = 7;
export const ANIMAL = 1;
export const ROAD = 5;
export const ADJ = 10;

/** The words of the sentence with the chosen adjective. */
export const words = (adjective) =>
  ['The', 'animal', 'didn\u2019t', 'cross', 'the', 'road', 'because', 'it', 'was', 'too', adjective];

/** Token embeddings X (11 x 6): which features each word has. */
export function embeddings(adjective) {
  return fromRows(words(adjective).map((w, i) => {
    const x = [0, 0, 0, 0, 0, 0];
    if (i === ANIMAL) Object.assign(x, { [NOUN]: 1, [ANIMATE]: 1, [ROLE]: 1 });
    else if (i === ROAD) Object.assign(x, { [NOUN]: 1, [ANIMATE]: -1, [ROLE]: -1 });
    else if (i === IT) x[PRONOUN] = 1;
    else if (i === ADJ) Object.assign(x, { [ADJECTIVE]: 1, [ANIMATE]: ADJECTIVES[adjective] });
    else x[OTHER] = 1;
    return x;
  }));
}

// A head's strongest raw score (after the 1/sqrt(d_head) scaling), equal in
// both models so neither head is sharper than the other.
export const SHARPNESS = 4;
/** Gain of the read-out step's query. */
export const READOUT_GAIN = 3;

/**
 * The projection matrices (6 x 6) for `heads` = 1 or 2. `tip` reads the role
 * feature (subject +1, object -1) in the head that looks at nouns: it adds
 * `tip` to the score of "animal" and subtracts it from "road", so > 0 tips
 * that head toward "animal" and < 0 toward "road".
 */
export function weights(heads, tip = 0) {
  const dh = 6 / heads;
  const g = SHARPNESS * Math.sqrt(dh);
  const t = tip * Math.sqrt(dh);
  const [Wq, Wk, Wv, Wo] = [zeros(6, 6), zeros(6, 6), zeros(6, 6), zeros(6, 6)];
  // Head 1 (columns 0..dh-1): the pronoun asks for nouns, the role tips it.
  put(Wq, [[PRONOUN, 0, g], [PRONOUN, 1, t]]);
  put(Wk, [[NOUN, 0, 1], [ROLE, 1, 1]]);
  put(Wv, [[NOUN, 0, 1]]);
  put(Wo, [[0, NOUN, 1]]);
  if (heads === 1) {
    // The single head must also find the adjective and carry its animacy,
    // and its value then carries the nouns' animacy too.
    put(Wk, [[ADJECTIVE, 0, 1]]);
    put(Wv, [[ANIMATE, 1, 1]]);
    put(Wo, [[1, ANIMATE, 1]]);
  } else {
    // Head 2 (columns 3..5): the pronoun asks for adjectives, carries animacy.
    put(Wq, [[PRONOUN, 3, g]]);
    put(Wk, [[ADJECTIVE, 3, 1]]);
    put(Wv, [[ANIMATE, 3, 1]]);
    put(Wo, [[3, ANIMATE, 1]]);
  }
  return { Wq, Wk, Wv, Wo };
}

/** W^O with the rows of switched-off heads zeroed: their Z no longer reaches Y. */
function withHeadsOff(Wo, heads, off) {
  const W = { rows: 6, cols: 6, data: Wo.data.slice() };
  const dh = 6 / heads;
  off.forEach((isOff, hd) => { if (isOff) W.data.fill(0, hd * dh * 6, (hd + 1) * dh * 6); });
  return W;
}

/**
 * Run the layer and the read-out.
 * state: {heads: 1|2, adjective: 'tired'|'wide', tip: number, off: [bool, bool]}
 */
export function itModel(attn, { heads = 2, adjective = 'tired', tip = 0, off = [false, false] } = {}) {
  const X = embeddings(adjective);
  const W = weights(heads, tip);
  const Wo = withHeadsOff(W.Wo, heads, off.slice(0, heads));
  const layer = attn.multiHeadAttention(X, null, { heads, ...W, Wo });
  const y = row(layer.output, IT);
  // Read-out: a second step from "it". Its query is what "it" gathered
  // (look-for-a-noun, wanted animacy); each word offers (noun, animate).
  const q2 = [[READOUT_GAIN * y[NOUN], READOUT_GAIN * y[ANIMATE]]];
  const K2 = fromRows(Array.from({ length: X.rows }, (_, i) => [X.data[i * 6 + NOUN], X.data[i * 6 + ANIMATE]]));
  const step2 = row(attn.attention(q2, K2, K2, { scale: 1 }).weights, 0);
  const [wa, wr] = [step2[ANIMAL], step2[ROAD]];
  return {
    words: words(adjective),
    X,
    W: { ...W, Wo },
    itWeights: layer.weights.map((Wh) => row(Wh, IT)), // per head: "it" -> every word
    gathered: y, // the layer's output for "it", in feature coordinates
    step2,
    readout: { referent: wa >= wr ? 'animal' : 'road', margin: Math.abs(wa - wr), animal: wa, road: wr },
  };
}

/** The referent the sentence means. */
export const truth = (adjective) => (ADJECTIVES[adjective] > 0 ? 'animal' : 'road');

/**
 * The read-out as the figure prints it: the two weights as whole
 * percentages, the margin as their difference (so the printed numbers agree),
 * and no referent while that margin is under 2 points.
 */
export function verdict({ animal, road }) {
  const [a, r] = [animal, road].map((w) => Math.round(w * 100));
  const points = Math.abs(a - r);
  return { animal: a, road: r, points, referent: points < 2 ? null : a > r ? 'animal' : 'road' };
}

/**
 * The two words a head weighs most, as the figure prints them ("road 31%").
 * Weights within 1e-6 of each other are a tie, broken by the word's place in
 * the sentence: the builds differ in the last bits, and a tie of seven 2%
 * weights must name the same word in every build and in the picture.
 */
export function topTwo(words, w) {
  const shown = pcts(w);
  return Array.from(w, (v, i) => [v, i]).sort((a, b) => (Math.abs(a[0] - b[0]) > 1e-6 ? b[0] - a[0] : a[1] - b[1]))
    .slice(0, 2).map(([, i]) => `${words[i]} ${shown[i]}`);
}
