// induction.model.js: the pure model of <attention-induction>: the copying
// task, a training run of a tiny attention-only transformer on it (in wasm,
// through the API), and what the figure reports about each head. No DOM; the
// worker (induction.worker.js) and the tests drive it.
import { uniform } from '../../kit/random.js';

/** The figure's defaults: the model, the task and the training budget. */
export const DEFAULTS = Object.freeze({
  vocab: 32, // tokens, drawn as the 32 letters and digits of base32
  context: 32, // each sequence has 33 tokens: 32 inputs, 32 next-token targets
  dModel: 32,
  heads: 2,
  layers: 2,
  batch: 32,
  steps: 1000, // the training budget
  lr: 0.01,
  weightDecay: 0.01,
  minPeriod: 6, // the repeated segment has 6 to 16 tokens
  maxPeriod: 16,
  seed: 1,
  evalSize: 32, // held-out sequences the curves and scores are measured on
  evalEvery: 10, // steps between two measurements
  induction: 0.5, // the prefix-matching score of a last-layer head that marks the figure's milestone
});

export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * One sequence of the task: a segment of `period` different random tokens,
 * repeated until the sequence has `length` tokens. Its first pass is
 * unpredictable; every later token repeats the one `period` places back.
 */
export function repeatedSequence(next, { vocab, length, period }) {
  const pool = Array.from({ length: vocab }, (_, i) => i);
  for (let i = 0; i < period; i++) { // a partial Fisher-Yates shuffle
    const j = i + Math.floor(next() * (vocab - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return Int32Array.from({ length }, (_, t) => pool[t % period]);
}

/** A batch: {sequences, periods}, periods drawn uniformly from [minPeriod, maxPeriod]. */
export function makeBatch(next, size, o = DEFAULTS) {
  const periods = Array.from({ length: size }, () => o.minPeriod + Math.floor(next() * (o.maxPeriod - o.minPeriod + 1)));
  const sequences = periods.map((period) => repeatedSequence(next, { vocab: o.vocab, length: o.context + 1, period }));
  return { sequences, periods };
}

/**
 * Mean loss of the first pass and of the repeats: the prediction of token
 * t + 1 belongs to the repeats when t + 1 >= period (it copies token
 * t + 1 - period). perToken is batch x T, as model.loss() returns it.
 */
export function splitLoss(perToken, periods, T) {
  const sum = { first: 0, repeats: 0 };
  const count = { first: 0, repeats: 0 };
  periods.forEach((p, b) => {
    for (let t = 0; t < T; t++) {
      const part = t + 1 >= p ? 'repeats' : 'first';
      sum[part] += perToken[b * T + t];
      count[part]++;
    }
  });
  return { first: sum.first / count.first, repeats: sum.repeats / count.repeats };
}

/**
 * Two scores for one head's weights W (T x T) on the inputs `tokens` (T of
 * them), for the two kinds of head Elhage et al. (2021) named, previous-token
 * heads and induction heads:
 *   previous token   the weight a query puts on the token just before it,
 *                    averaged over queries 1 .. T-1;
 *   prefix matching  the weight a query puts on every token that followed
 *                    an earlier copy of the query's own token (key j with
 *                    tokens[j - 1] = tokens[i], j <= i), summed, averaged
 *                    over the queries whose token did occur before: the
 *                    first of Olsson et al.'s (2022) two criteria for an
 *                    induction head (the second, copying, is not scored).
 * Returns sums and counts, so several sequences can be pooled.
 */
export function headScores(W, tokens) {
  const T = W.rows;
  let prev = 0;
  let match = 0;
  let matched = 0;
  for (let i = 1; i < T; i++) {
    prev += W.data[i * T + i - 1];
    let seen = false;
    let w = 0;
    for (let j = 1; j <= i; j++) {
      if (tokens[j - 1] === tokens[i]) {
        seen = true;
        w += W.data[i * T + j];
      }
    }
    if (seen) {
      match += w;
      matched++;
    }
  }
  return { prev, prevCount: T - 1, match, matched };
}

/** scores[layer][head] = {previousToken, prefixMatching}, pooled over the sequences. */
export function scoreHeads(model, sequences) {
  const sums = [];
  for (const seq of sequences) {
    model.attention(seq).forEach((heads, l) => heads.forEach((W, h) => {
      const s = headScores(W, seq);
      const acc = ((sums[l] ??= [])[h] ??= { prev: 0, prevCount: 0, match: 0, matched: 0 });
      for (const k of Object.keys(acc)) acc[k] += s[k];
    }));
  }
  return sums.map((heads) => heads.map((s) => ({
    previousToken: s.prev / s.prevCount,
    prefixMatching: s.matched ? s.match / s.matched : 0,
  })));
}

/** Loss of the first pass and the repeats on a held-out batch. */
export function measure(model, evalSet) {
  const { perToken } = model.loss(evalSet.sequences);
  return splitLoss(perToken, evalSet.periods, model.context);
}

/**
 * A training run: the model, its training batches (from seed) and a
 * held-out set (from seed + 1), and what has been measured so far.
 *   run.train(n)      n more steps (never past the budget); returns the last loss
 *   run.curve         [{step, first, repeats}] every evalEvery steps, and at step 0
 *   run.milestone     {step}: the first of those steps at which a head of the
 *                     last layer (of two or more) scored above `induction` in
 *                     prefix matching; null until then
 *   run.scores()      every head's two scores on the held-out set
 *   run.ablated(offs) first-pass and repeat loss with heads [layer, head] switched off
 */
export function createRun(attn, options = {}) {
  const o = { ...DEFAULTS, ...options };
  const model = attn.createTransformer({
    vocab: o.vocab, context: o.context, dModel: o.dModel, heads: o.heads, layers: o.layers, seed: o.seed,
  });
  const nextTrain = uniform(o.seed);
  const evalSet = makeBatch(uniform(o.seed + 1), o.evalSize, o);
  const run = {
    options: o,
    model,
    evalSet,
    step: 0,
    curve: [{ step: 0, ...measure(model, evalSet) }],
    milestone: null,
    get done() { return run.step >= o.steps; },
    train(n = 1) {
      let loss = NaN;
      for (let k = 0; k < n && !run.done; k++) {
        loss = model.trainStep(makeBatch(nextTrain, o.batch, o).sequences, { lr: o.lr, weightDecay: o.weightDecay });
        run.step++;
        if (run.step % o.evalEvery === 0 || run.done) {
          run.curve.push({ step: run.step, ...measure(model, evalSet) });
          if (!run.milestone && o.layers > 1 && Math.max(...run.scores().at(-1).map((s) => s.prefixMatching)) > o.induction) {
            run.milestone = { step: run.step };
          }
        }
      }
      return loss;
    },
    scores: () => scoreHeads(model, evalSet.sequences),
    ablated(offs) {
      for (const [l, h] of offs) model.ablate(l, h, true);
      try {
        return measure(model, evalSet);
      } finally {
        for (const [l, h] of offs) model.ablate(l, h, false);
      }
    },
    dispose: () => model.dispose(),
  };
  return run;
}
