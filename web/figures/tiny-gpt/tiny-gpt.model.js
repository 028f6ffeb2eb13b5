// tiny-gpt.model.js: the pure model of <attention-tiny-gpt>: a small GPT
// (LayerNorm, attention and MLP blocks) trained character by character on
// this article's own text (build/article-text.js, made at build time
// by scripts/article-text.mjs), a bigram model to compare it with, and the
// three ways of decoding. No DOM; the worker (tiny-gpt.worker.js) and the
// tests drive it.
import { uniform } from '../../kit/random.js';

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
  seed: 1,
  prompt: 'attention ', // what the samples start from
  reading: 'this article builds it up one idea at a time', // what the attention maps read first: a sentence of the article
  sampleSteps: 80, // characters per sample
  beam: 4,
  temperature: 0.8,
});

export const encode = (text) => Int32Array.from([...text.toLowerCase()].filter((c) => ALPHABET.includes(c)), (c) => ALPHABET.indexOf(c));
export const decode = (tokens) => Array.from(tokens, (t) => ALPHABET[t]).join('');

/** The characters of `text` that encode() drops (not in the alphabet, even lower-cased), each once, in order. */
export const unknownChars = (text) => [...new Set([...text].filter((c) => [...c.toLowerCase()].some((l) => !ALPHABET.includes(l))))];

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

/**
 * `tokens` as windows of `length` tokens that tile it, so that every token
 * but the first is a target exactly once, as in bigramLoss(): windows
 * `length - 1` apart (each one's last token is the next one's first input),
 * and a last window aligned to the end that counts only the targets the
 * others left. -> {windows, counted: Uint8Array(windows x (length - 1))}
 */
export function tiles(tokens, length) {
  if (tokens.length < length) throw new RangeError(`tiles: ${tokens.length} tokens do not fill one window of ${length}`);
  const T = length - 1;
  const starts = [];
  for (let at = 0; at + length <= tokens.length; at += T) starts.push(at);
  const covered = starts.length * T; // targets 1 .. covered so far
  const extra = tokens.length - 1 > covered;
  if (extra) starts.push(tokens.length - length);
  const counted = new Uint8Array(starts.length * T).fill(1);
  if (extra) for (let t = 0; t < T; t++) counted[(starts.length - 1) * T + t] = starts.at(-1) + 1 + t > covered ? 1 : 0;
  return { windows: starts.map((at) => tokens.slice(at, at + length)), counted };
}

/** The model's mean loss over the counted targets of `tiled` (tiles()). */
export function tiledLoss(model, { windows, counted }) {
  const { perToken } = model.loss(windows);
  let [sum, n] = [0, 0];
  counted.forEach((c, k) => { if (c) { sum += perToken[k]; n++; } });
  return sum / n;
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
 * heldOut: on the whole held-out text, the same targets as the bigram
 * model's held-out loss), next to the bigram model's losses.
 */
export function createRun(attn, options = {}, text) {
  const o = { ...DEFAULTS, ...options };
  const data = splitText(text, o.heldOut);
  const model = attn.createTransformer({
    vocab: ALPHABET.length, context: o.context, dModel: o.dModel, heads: o.heads, layers: o.layers,
    mlp: true, layerNorm: true, seed: o.seed,
  });
  const next = uniform(o.seed);
  const evalSet = tiles(data.heldOut, o.context + 1);
  const bigram = { train: bigramLoss(data.train, data.train), heldOut: bigramLoss(data.train, data.heldOut) };
  const curve = [{ step: 0, train: model.loss(randomWindows(next, data.train, o.context + 1, o.batch)).mean, heldOut: tiledLoss(model, evalSet) }];
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
          curve.push({ step: run.step, train: pending.reduce((a, b) => a + b, 0) / pending.length, heldOut: tiledLoss(model, evalSet) });
          pending = [];
        }
      }
    },
    dispose() { model.dispose(); },
  };
  return run;
}

/**
 * The three decodings of `prompt` side by side: {read, prompt, greedy,
 * sample, beam}: read, what the model can read of the prompt (see encode);
 * prompt, what it continues (read, or a space when it can read none of
 * it); each decoding {text, logProb} (logProb: the model's log-probability
 * of the text it wrote, in nats).
 */
export function decodings(model, prompt = DEFAULTS.prompt, { steps = DEFAULTS.sampleSteps, beam = DEFAULTS.beam, temperature = DEFAULTS.temperature, seed = 1 } = {}) {
  const tokens = encode(prompt);
  const start = tokens.length ? tokens : encode(' ');
  const one = (options) => {
    const g = model.generate(start, { steps, ...options });
    return { text: decode(g.tokens), logProb: g.logProb };
  };
  return {
    read: decode(tokens),
    prompt: decode(start),
    greedy: one({ strategy: 'greedy' }),
    sample: one({ strategy: 'sample', temperature, seed }),
    beam: one({ strategy: 'beam', beam }),
  };
}

/**
 * Every head's attention over `text` as the model reads it: {chars, read,
 * attention[layer][head]} on the last `context` of the `read` characters it
 * can read (see encode), or null when it can read none. The weights of the
 * inputs do not depend on what follows, so token 0 closes the sequence
 * (attention() reads a sequence's inputs, all tokens but its last).
 */
export function attentionOn(model, text) {
  const all = encode(text);
  const tokens = all.slice(-model.context);
  if (tokens.length === 0) return null;
  return { chars: decode(tokens), read: all.length, attention: model.attention([...tokens, 0]) };
}
