// tiny-gpt.model.js: the pure model of <attention-tiny-gpt>: a small GPT
// (LayerNorm, attention and MLP blocks) trained character by character on
// this article's own text (web/figures/tiny-gpt.text.js, made at build time
// by scripts/article-text.mjs), a bigram model to compare it with, and the
// three ways of decoding. No DOM; the worker (tiny-gpt.worker.js) and the
// tests drive it.
import { uniform } from './random.js';

/** The characters the model reads and writes (the text is lower-cased; anything else is dropped). */
export const ALPHABET = " abcdefghijklmnopqrstuvwxyz0123456789.,;:'\"()-?!/=+*";

/** The figure's defaults: the model, the data split and the training budget. */
export const DEFAULTS = Object.freeze({
  context: 64, // characters the model sees at once
  dModel: 48,
  heads: 4,
  layers: 2,
  batch: 16, // windows of context + 1 characters per step
  steps: 600, // the training budget
  lr: 4e-3,
  weightDecay: 0.05,
  heldOut: 0.1, // the last tenth of the text is never trained on
  evalEvery: 25, // steps between two measurements
  evalWindows: 32, // held-out windows the held-out loss is measured on
  seed: 1,
  prompt: 'attention ', // what the samples start from
  sampleSteps: 80, // characters per sample
  beam: 4,
  temperature: 0.8,
});

export const encode = (text) => Int32Array.from([...text.toLowerCase()].filter((c) => ALPHABET.includes(c)), (c) => ALPHABET.indexOf(c));
export const decode = (tokens) => Array.from(tokens, (t) => ALPHABET[t]).join('');

/** The text as tokens, split in two: the first (1 - heldOut) to train on, the rest held out. */
export function splitText(text, heldOut = DEFAULTS.heldOut) {
  const tokens = encode(text);
  const cut = Math.round(tokens.length * (1 - heldOut));
  return { train: tokens.subarray(0, cut), heldOut: tokens.subarray(cut) };
}

/**
 * A bigram model of `tokens`: p(next | previous) from counts, with add-one
 * (Laplace) smoothing so an unseen pair is not impossible. Returns the mean
 * loss (nats per character) it gives `other`.
 */
export function bigramLoss(tokens, other, V = ALPHABET.length) {
  const counts = new Float64Array(V * V).fill(1);
  const rows = new Float64Array(V).fill(V);
  for (let i = 1; i < tokens.length; i++) {
    counts[tokens[i - 1] * V + tokens[i]]++;
    rows[tokens[i - 1]]++;
  }
  let total = 0;
  for (let i = 1; i < other.length; i++) total -= Math.log(counts[other[i - 1] * V + other[i]] / rows[other[i - 1]]);
  return total / (other.length - 1);
}

/** `count` windows of `length` tokens spread evenly over `tokens` (fixed: the held-out measurement). */
export function evenWindows(tokens, length, count) {
  const last = tokens.length - length;
  const n = Math.min(count, last + 1);
  return Array.from({ length: n }, (_, k) => tokens.slice(Math.round((k * last) / Math.max(1, n - 1)), Math.round((k * last) / Math.max(1, n - 1)) + length));
}

/** A batch of random windows of context + 1 tokens from `tokens`. */
export function randomWindows(next, tokens, length, count) {
  return Array.from({ length: count }, () => {
    const at = Math.floor(next() * (tokens.length - length + 1));
    return tokens.slice(at, at + length);
  });
}

/**
 * A training run: the model, its data, and a curve of {step, train,
 * heldOut} losses (train: the mean batch loss since the previous point;
 * heldOut: on fixed held-out windows), next to the bigram model's losses.
 */
export function createRun(attn, options = {}, text) {
  const o = { ...DEFAULTS, ...options };
  const data = splitText(text, o.heldOut);
  const model = attn.createTransformer({
    vocab: ALPHABET.length, context: o.context, dModel: o.dModel, heads: o.heads, layers: o.layers,
    mlp: true, layerNorm: true, seed: o.seed,
  });
  const next = uniform(o.seed);
  const evalSet = evenWindows(data.heldOut, o.context + 1, o.evalWindows);
  const bigram = { train: bigramLoss(data.train, data.train), heldOut: bigramLoss(data.train, data.heldOut) };
  const curve = [{ step: 0, train: model.loss(randomWindows(next, data.train, o.context + 1, o.batch)).mean, heldOut: model.loss(evalSet).mean }];
  let pending = [];
  const run = {
    options: o, model, data, bigram, curve,
    step: 0,
    get done() { return run.step >= o.steps; },
    /** n training steps (fewer at the end of the budget). */
    train(n = 1) {
      for (let k = 0; k < n && !run.done; k++) {
        pending.push(model.trainStep(randomWindows(next, data.train, o.context + 1, o.batch), { lr: o.lr, weightDecay: o.weightDecay }));
        run.step++;
        if (run.step % o.evalEvery === 0 || run.done) {
          curve.push({ step: run.step, train: pending.reduce((a, b) => a + b, 0) / pending.length, heldOut: model.loss(evalSet).mean });
          pending = [];
        }
      }
    },
    dispose() { model.dispose(); },
  };
  return run;
}

/**
 * The three decodings of `prompt` side by side: {greedy, sample, beam},
 * each {text, logProb} (logProb: the model's log-probability of the text it
 * wrote, in nats).
 */
export function decodings(model, prompt = DEFAULTS.prompt, { steps = DEFAULTS.sampleSteps, beam = DEFAULTS.beam, temperature = DEFAULTS.temperature, seed = 1 } = {}) {
  const tokens = encode(prompt);
  const start = tokens.length ? tokens : encode(' ');
  const one = (options) => {
    const g = model.generate(start, { steps, ...options });
    return { text: decode(g.tokens), logProb: g.logProb };
  };
  return {
    greedy: one({ strategy: 'greedy' }),
    sample: one({ strategy: 'sample', temperature, seed }),
    beam: one({ strategy: 'beam', beam }),
  };
}

/**
 * The text the figure reads before the reader types any: the article's first
 * sentence of 30 to 50 characters (the model's own material, in its alphabet,
 * in whatever language the page around it speaks).
 */
export function readingText(article) {
  return article.split('. ').find((sentence) => sentence.length >= 30 && sentence.length <= 50) ?? article.slice(0, 40);
}

/**
 * Every head's attention over `text` as the model reads it: {chars,
 * attention[layer][head]} on its last `context` characters (any others
 * dropped), or null for fewer than one character. The weights of the
 * inputs do not depend on what follows, so token 0 closes the sequence
 * (attention() reads a sequence's inputs, all tokens but its last).
 */
export function attentionOn(model, text) {
  const tokens = encode(text).slice(-model.context);
  if (tokens.length === 0) return null;
  return { chars: decode(tokens), attention: model.attention([...tokens, 0]) };
}
