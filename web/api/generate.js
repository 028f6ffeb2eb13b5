// generate.js: text from a trained transformer (model.generate), one token
// at a time through attn_tf_decode (src/generate.c), which keeps every
// earlier position's keys and values in a wasm KV cache: a new token costs
// one row of each layer, not the whole sequence again.
//
// Learned positions stop at `context`: when the sequence outgrows them, the
// cache restarts from the last ceil(context / 2) tokens (recomputed once), so
// a prediction always sees between half a context and a full one.
import { MEMORY_LIMIT, isArrayLike, toOptions, toPositive } from './check.js';

const STRATEGIES = ['greedy', 'sample', 'beam'];
const OPTIONS = ['steps', 'strategy', 'temperature', 'beam', 'seed'];

function whole(value, name, { min, max, fallback }) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new TypeError(`generate: ${name} is required (a whole number from ${min} to ${max})`);
  if (typeof value !== 'number') throw new TypeError(`generate: ${name} must be a number, got ${typeof value}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`generate: ${name} must be a whole number from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** The options, checked; unknown names are an error (a typo would otherwise be silently ignored). */
function toGenerateOptions(options) {
  const o = toOptions(options, 'generate');
  for (const key of Object.keys(o)) {
    if (!OPTIONS.includes(key)) throw new RangeError(`generate: unknown option '${key}'; the options are ${OPTIONS.join(', ')}`);
  }
  const strategy = o.strategy ?? 'greedy';
  if (typeof strategy !== 'string') throw new TypeError(`generate: strategy must be a string, got ${typeof strategy}`);
  if (!STRATEGIES.includes(strategy)) throw new RangeError(`generate: strategy must be 'greedy', 'sample' or 'beam', got '${strategy}'`);
  if (o.temperature !== undefined && strategy !== 'sample') throw new RangeError(`generate: temperature applies to strategy 'sample' only (got strategy '${strategy}')`);
  if (o.beam !== undefined && strategy !== 'beam') throw new RangeError(`generate: beam applies to strategy 'beam' only (got strategy '${strategy}')`);
  if (o.seed !== undefined && strategy !== 'sample') throw new RangeError(`generate: seed applies to strategy 'sample' only (greedy and beam search are deterministic)`);
  return {
    steps: whole(o.steps, 'steps', { min: 1, max: 1 << 20 }),
    strategy,
    temperature: toPositive(o.temperature, 'temperature', 1),
    beam: whole(o.beam, 'beam', { min: 1, max: 64, fallback: 4 }),
    seed: whole(o.seed, 'seed', { min: 0, max: 2 ** 32 - 1, fallback: 0 }),
  };
}

function toPrompt(prompt, vocab) {
  if (!isArrayLike(prompt)) throw new TypeError('generate: prompt must be an array of token ids (whole numbers)');
  if (prompt.length === 0) throw new RangeError('generate: prompt is empty; give at least one token');
  const out = new Int32Array(prompt.length);
  for (let t = 0; t < prompt.length; t++) {
    const id = prompt[t];
    if (typeof id !== 'number') throw new TypeError(`generate: prompt[${t}] is ${typeof id}; token ids are whole numbers`);
    if (!Number.isInteger(id) || id < 0 || id >= vocab) {
      throw new RangeError(`generate: prompt[${t}] is ${id}; token ids are whole numbers from 0 to vocab - 1 = ${vocab - 1}`);
    }
    out[t] = id;
  }
  return out;
}

/** mulberry32: a small seeded generator of uniform numbers in [0, 1). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** log softmax of row `r` of `logits` (rows of V), in float64, at temperature `temp`. */
function logSoftmax(logits, r, V, temp = 1) {
  const out = new Float64Array(V);
  let max = -Infinity;
  for (let c = 0; c < V; c++) max = Math.max(max, logits[r * V + c] / temp);
  let sum = 0;
  for (let c = 0; c < V; c++) sum += Math.exp(logits[r * V + c] / temp - max);
  const lse = max + Math.log(sum);
  for (let c = 0; c < V; c++) out[c] = logits[r * V + c] / temp - lse;
  return out;
}

const argmax = (x) => x.reduce((best, v, i) => (v > x[best] ? i : best), 0);

/**
 * n token histories of equal length, decoded through a KV cache. step()
 * feeds what the cache has not seen yet and returns the next-token logits
 * (n x vocab); reorder(parents) makes history i a copy of history parents[i].
 */
class Decoder {
  constructor(k, arena, model, config, cfg, prompt, n) {
    const { ex } = k;
    Object.assign(this, { k, ex, model, cfg, n });
    const cacheBytes = ex.attn_tf_cache_size(config, n) >>> 0;
    const wsBytes = ex.attn_tf_decode_workspace_size(config, n) >>> 0;
    if (cacheBytes === 0 || wsBytes === 0 || 2 * cacheBytes + wsBytes > MEMORY_LIMIT) {
      throw new RangeError(`generate: the KV cache of ${n} sequences does not fit in wasm memory`);
    }
    this.caches = [arena.alloc(cacheBytes), arena.alloc(cacheBytes)];
    this.ws = arena.alloc(wsBytes);
    this.tokens = arena.alloc(4 * n);
    this.logits = arena.floats(n * cfg.vocab);
    this.histories = Array.from({ length: n }, () => Array.from(prompt));
    this.start = Math.max(0, prompt.length - cfg.context); // history index of cache row 0
    this.filled = 0; // cache rows filled
  }

  step() {
    const { cfg, ex, n } = this;
    const length = this.histories[0].length;
    if (length - this.start > cfg.context) { // out of positions: restart from the last half context
      this.start = length - Math.ceil(cfg.context / 2);
      this.filled = 0;
    }
    for (; this.start + this.filled < length; this.filled++) {
      const ids = new Int32Array(ex.memory.buffer, this.tokens, n);
      for (let s = 0; s < n; s++) ids[s] = this.histories[s][this.start + this.filled];
      this.k.check(ex.attn_tf_decode(this.logits, this.caches[0], this.model, this.tokens, n, this.filled, this.ws), 'generate');
    }
    return new Float32Array(ex.memory.buffer, this.logits, n * cfg.vocab).slice();
  }

  push(tokens) {
    tokens.forEach((t, s) => this.histories[s].push(t));
  }

  reorder(parents) {
    const { cfg, n } = this;
    const plane = cfg.context * cfg.dModel; // floats of one K or V
    const perSeq = cfg.layers * 2 * plane;
    const [from, to] = this.caches;
    const mem = new Float32Array(this.ex.memory.buffer);
    for (let s = 0; s < n; s++) {
      for (let p = 0; p < 2 * cfg.layers; p++) { // only the rows filled
        const src = from / 4 + parents[s] * perSeq + p * plane;
        mem.copyWithin(to / 4 + s * perSeq + p * plane, src, src + this.filled * cfg.dModel);
      }
    }
    this.caches = [to, from];
    this.histories = parents.map((p) => this.histories[p].slice());
  }
}

function greedyOrSample(decoder, o, V) {
  const next = random(o.seed);
  const tokens = [];
  const logProbs = new Float64Array(o.steps);
  for (let i = 0; i < o.steps; i++) {
    const logits = decoder.step();
    const logp = logSoftmax(logits, 0, V);
    let t;
    if (o.strategy === 'greedy') {
      t = argmax(logp);
    } else {
      const q = logSoftmax(logits, 0, V, o.temperature);
      let u = next();
      for (t = 0; t < V - 1; t++) if ((u -= Math.exp(q[t])) < 0) break;
    }
    tokens.push(t);
    logProbs[i] = logp[t];
    decoder.push([t]);
  }
  return { tokens, logProbs };
}

// Beam search: keep the `beam` highest-scoring continuations (sum of
// log-probabilities) at every step; ties go to the earlier beam and token.
function beamSearch(decoder, o, V) {
  const B = o.beam;
  let scores = Array.from({ length: B }, (_, b) => (b === 0 ? 0 : -Infinity)); // one start, not B copies
  let steps = Array.from({ length: B }, () => []); // per beam: [token, logp] pairs
  for (let i = 0; i < o.steps; i++) {
    const logits = decoder.step();
    const candidates = [];
    for (let b = 0; b < B; b++) {
      if (scores[b] === -Infinity) continue;
      const logp = logSoftmax(logits, b, V);
      for (let t = 0; t < V; t++) candidates.push({ b, t, lp: logp[t], score: scores[b] + logp[t] });
    }
    candidates.sort((x, y) => y.score - x.score || x.b - y.b || x.t - y.t);
    const kept = candidates.slice(0, B);
    while (kept.length < B) kept.push({ ...kept[0], score: -Infinity }); // fewer candidates than beams (vocab < beam)
    decoder.reorder(kept.map((c) => c.b));
    decoder.push(kept.map((c) => c.t));
    steps = kept.map((c) => [...steps[c.b], [c.t, c.lp]]);
    scores = kept.map((c) => c.score);
  }
  const best = steps[0];
  return { tokens: best.map(([t]) => t), logProbs: Float64Array.from(best, ([, lp]) => lp) };
}

/**
 * `steps` new tokens after `prompt`: {tokens, logProb, logProbs}, where
 * logProbs[i] is the model's log-probability (temperature 1) of tokens[i]
 * and logProb their sum (the sequence's log-probability given the prompt).
 */
export function generate(k, model, config, cfg, prompt, options) {
  const o = toGenerateOptions(options);
  const tokens = toPrompt(prompt, cfg.vocab);
  return k.run((arena) => {
    const decoder = new Decoder(k, arena, model, config, cfg, tokens, o.strategy === 'beam' ? o.beam : 1);
    const out = o.strategy === 'beam' ? beamSearch(decoder, o, cfg.vocab) : greedyOrSample(decoder, o, cfg.vocab);
    return { tokens: out.tokens, logProb: out.logProbs.reduce((a, b) => a + b, 0), logProbs: out.logProbs };
  });
}
