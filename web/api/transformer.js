// transformer.js: tiny transformers trained in wasm (src/train.c). A model's
// parameters, gradients and AdamW moments stay in wasm memory from
// createTransformer() to dispose() (a resident arena, also freed when a
// forgotten model is collected); every call copies its tokens in, runs one C
// function over the whole batch, and copies fresh results out.
import { CAP, MEMORY_LIMIT, checkBytes, isArrayLike, toFlag, toOptions, toPositive } from './check.js';
import { residentArena } from './kernels.js';
import { generate } from './generate.js';
import { cString, readStruct } from './layout.js';

// AdamW's defaults are torch.optim.AdamW's.
const ADAMW = { lr: 1e-3, weightDecay: 1e-2, beta1: 0.9, beta2: 0.999, eps: 1e-8 };

/** A whole number in [min, max], or `fallback` when absent. */
function toInteger(value, name, { min = 0, max = 2 ** 31 - 1, fallback } = {}) {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value === undefined) throw new TypeError(`${name} is required (a whole number)`);
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeof value}`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got ${value}`);
  }
  return value;
}

/** The model's options, checked. */
export function toConfig(options) {
  const o = toOptions(options, 'createTransformer');
  const cfg = {
    vocab: toInteger(o.vocab, 'vocab', { min: 1 }),
    context: toInteger(o.context, 'context', { min: 1 }),
    dModel: toInteger(o.dModel, 'dModel', { min: 1 }),
    heads: toInteger(o.heads, 'heads', { min: 1 }),
    layers: toInteger(o.layers, 'layers'),
    mlp: toFlag(o.mlp, 'mlp', false),
    layerNorm: toFlag(o.layerNorm, 'layerNorm', false),
  };
  if (cfg.dModel % cfg.heads !== 0) throw new RangeError(`heads (${cfg.heads}) must divide dModel (${cfg.dModel})`);
  return { ...cfg, seed: toInteger(o.seed, 'seed', { max: 2 ** 32 - 1, fallback: 0 }) };
}

/** The C struct attn_tf_config's fields. */
const configFields = (c) => ({
  vocab: c.vocab, context: c.context, d_model: c.dModel, heads: c.heads, layers: c.layers,
  mlp: c.mlp ? 1 : 0, layer_norm: c.layerNorm ? 1 : 0,
});

/**
 * Token sequences as one Int32Array (batch x length), checked: equal
 * lengths from 2 to context + 1, whole numbers in [0, vocab). With `single`,
 * `sequences` is one sequence (the calls that look at one).
 */
export function toTokens(sequences, { vocab, context }, name, single = false) {
  const list = single ? [sequences] : sequences;
  const what = single ? 'an array of token ids (whole numbers)' : 'an array of token sequences (arrays of whole numbers)';
  if (!isArrayLike(list) || !isArrayLike(list[0] ?? []) || (single && isArrayLike(list[0][0]))) {
    throw new TypeError(`${name} must be ${what}`);
  }
  const at = (b, t) => (single ? `${name}[${t}]` : `${name}[${b}][${t}]`);
  const batch = list.length;
  if (batch === 0) throw new RangeError(`${name} is empty; give at least one sequence`);
  const length = list[0].length;
  if (length < 2 || length > context + 1) {
    throw new RangeError(`${single ? name : `${name}[0]`} has ${length} tokens; a sequence needs 2 to context + 1 = ${context + 1} (inputs and the next token)`);
  }
  const tokens = new Int32Array(batch * length);
  for (let b = 0; b < batch; b++) {
    const s = list[b];
    if (!isArrayLike(s)) throw new TypeError(`${name}[${b}] must be an array of token ids, got ${typeof s}`);
    if (s.length !== length) throw new RangeError(`${name}[${b}] has ${s.length} tokens, expected ${length} like ${name}[0] (sequences of a batch have one length)`);
    for (let t = 0; t < length; t++) {
      const id = s[t];
      if (typeof id !== 'number') throw new TypeError(`${at(b, t)} is ${typeof id}; token ids are whole numbers`);
      if (!Number.isInteger(id) || id < 0 || id >= vocab) {
        throw new RangeError(`${at(b, t)} is ${id}; token ids are whole numbers from 0 to vocab - 1 = ${vocab - 1}`);
      }
      tokens[b * length + t] = id;
    }
  }
  return { tokens, batch, length };
}

export function toAdamW(options) {
  const o = toOptions(options, 'trainStep');
  const unit = (value, name) => {
    if (value === undefined) return ADAMW[name];
    if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
    if (!(value >= 0 && value < 1)) throw new RangeError(`${name} must be in [0, 1), got ${value}`);
    return value;
  };
  const nonNegative = (value, name) => {
    if (value === undefined) return ADAMW[name];
    if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
    if (!(value >= 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be finite and >= 0, got ${value}`);
    return value;
  };
  // the C struct attn_adamw's fields
  return {
    lr: toPositive(o.lr, 'lr', ADAMW.lr), beta1: unit(o.beta1, 'beta1'), beta2: unit(o.beta2, 'beta2'),
    eps: nonNegative(o.eps, 'eps'), weight_decay: nonNegative(o.weightDecay, 'weightDecay'),
  };
}

class Transformer {
  #k;
  #resident;
  #model = 0; // pointer to attn_tf_model; 0 once disposed
  #config = 0; // pointer to an attn_tf_config of the same values (the sizing calls take one)
  #tensors; // [{name, rows, cols, offset}] in block order
  #params;
  #grads;
  #off;

  constructor(k, cfg) {
    this.#k = k;
    const { vocab, context, dModel, heads, layers, mlp, layerNorm, seed } = cfg;
    for (const [key, value] of Object.entries({ vocab, context, dModel, heads, layers, mlp, layerNorm, seed })) {
      Object.defineProperty(this, key, { value, enumerable: true });
    }
    this.#resident = residentArena(k, this);
    try {
      this.#allocate(cfg);
    } catch (e) {
      this.#resident.dispose();
      throw e;
    }
  }

  #allocate(cfg) {
    const { ex } = this.#k;
    const arena = this.#resident.arena;
    const config = (this.#config = arena.struct('attn_tf_config', configFields(cfg)));
    // Parameters, gradients and AdamW's two moments: four blocks of the
    // count the C layout gives (0: more than any buffer can hold).
    const count = ex.attn_tf_param_count(config) >>> 0;
    const what = `a transformer with vocab ${cfg.vocab}, context ${cfg.context}, dModel ${cfg.dModel} and ${cfg.layers} layers`;
    if (count === 0) throw new RangeError(`${what} needs more than the ${CAP} of wasm memory`);
    checkBytes(16 * count, what);
    this.#tensors = this.#readLayout(arena, config);
    const blocks = [0, 1, 2, 3].map(() => arena.floats(count));
    this.#off = arena.alloc(cfg.layers * cfg.heads);
    [this.#params, this.#grads] = blocks;
    const [params, grads, m, v] = blocks;
    this.#model = arena.struct('attn_tf_model', { cfg: configFields(cfg), params, grads, m, v, off: this.#off, step: 0 });
    this.#k.check(ex.attn_tf_init(this.#model, cfg.seed >>> 0), 'createTransformer');
  }

  // The tensors of the block, named as the C layout names them (attn_tf_param_info).
  #readLayout(arena, config) {
    const { ex } = this.#k;
    const info = arena.struct('attn_tf_param', {});
    const tensors = [];
    for (let i = 0; ex.attn_tf_param_info(info, config, i) === 0; i++) {
      const { name, layer, rows, cols, offset } = readStruct(ex, 'attn_tf_param', info);
      const short = cString(ex, name);
      tensors.push({ name: layer >= 0 ? `layers.${layer}.${short}` : short, rows, cols, offset });
    }
    return tensors;
  }

  #live(what) {
    if (!this.#model) throw new Error(`${what}: this transformer was disposed`);
  }

  // One call of fn(arena, ex, tokens pointer, workspace pointer) on checked sequences.
  #run(sequences, name, fn, single = false) {
    const { tokens, batch, length } = toTokens(sequences, this, name, single);
    const { ex } = this.#k;
    const ws = ex.attn_tf_workspace_size(this.#config, batch, length) >>> 0;
    if (ws === 0 || ws > MEMORY_LIMIT) {
      throw new RangeError(`${batch} sequences of ${length} tokens need more than the ${CAP} of wasm memory; use fewer at a time`);
    }
    return this.#k.run((arena) => fn(arena, ex, arena.put(tokens), arena.alloc(ws), batch, length));
  }

  /** AdamW steps taken so far. */
  get steps() {
    this.#live('steps');
    return readStruct(this.#k.ex, 'attn_tf_model', this.#model).step;
  }

  /**
   * One training step on a batch: forward, backward, one AdamW update of
   * every parameter (lr, weightDecay, beta1, beta2, eps; torch.optim.AdamW's
   * defaults). Returns the batch's mean loss before the update.
   */
  trainStep(sequences, options) {
    this.#live('trainStep');
    const adamw = toAdamW(options);
    return this.#run(sequences, 'sequences', (arena, ex, tokens, ws, batch, length) => {
      const loss = arena.floats(1);
      this.#k.check(ex.attn_tf_train_step(loss, this.#model, tokens, batch, length, arena.struct('attn_adamw', adamw), ws), 'trainStep');
      return new Float32Array(ex.memory.buffer, loss, 1)[0];
    });
  }

  /** The gradient of the mean loss for every parameter, without an update: {loss, grads: {name: Float32Array}}. */
  gradients(sequences) {
    this.#live('gradients');
    return this.#run(sequences, 'sequences', (arena, ex, tokens, ws, batch, length) => {
      const loss = arena.floats(1);
      this.#k.check(ex.attn_tf_gradients(loss, this.#model, tokens, batch, length, ws), 'gradients');
      return { loss: new Float32Array(ex.memory.buffer, loss, 1)[0], grads: this.#block(this.#grads) };
    });
  }

  /**
   * One AdamW update of every parameter from `grads` ({name: Float32Array},
   * every parameter's, as gradients() returns; a sum of several batches'
   * shares, say) with trainStep's options: trainStep is gradients() then
   * update() with its grads, to the bit. The gradients are checked (names,
   * sizes, finite values) before any is written.
   */
  update(grads, options) {
    this.#live('update');
    const adamw = toAdamW(options);
    if (grads === null || typeof grads !== 'object' || isArrayLike(grads)) {
      throw new TypeError('update takes the gradients as an object {name: Float32Array}, like gradients() returns');
    }
    for (const name of Object.keys(grads)) {
      if (!this.#tensors.some((t) => t.name === name)) throw new RangeError(`update: unknown parameter ${name}`);
    }
    const checked = this.#tensors.map((t) => {
      const g = grads[t.name];
      const n = t.rows * t.cols;
      if (g === undefined) throw new TypeError(`update: the gradient of ${t.name} is missing (every parameter's is needed)`);
      if (!isArrayLike(g) || g.length !== n) throw new RangeError(`update: the gradient of ${t.name} must have ${n} values (${t.rows} x ${t.cols})`);
      const data = g instanceof Float32Array ? g : Float32Array.from(g);
      const bad = data.findIndex((v) => !Number.isFinite(v));
      if (bad >= 0) throw new RangeError(`update: the gradient of ${t.name} has ${data[bad]} at ${bad}; values must be finite`);
      return { t, data };
    });
    const { ex } = this.#k;
    for (const { t, data } of checked) new Float32Array(ex.memory.buffer, this.#grads + 4 * t.offset, data.length).set(data);
    this.#k.run((arena) => this.#k.check(ex.attn_tf_update(this.#model, arena.struct('attn_adamw', adamw)), 'update'));
  }

  /** {mean, perToken}: each prediction's loss, batch x (length - 1), and their mean. */
  loss(sequences) {
    this.#live('loss');
    return this.#run(sequences, 'sequences', (arena, ex, tokens, ws, batch, length) => {
      const mean = arena.floats(1);
      const per = arena.floats(batch * (length - 1));
      this.#k.check(ex.attn_tf_forward(mean, per, 0, 0, this.#model, tokens, batch, length, ws), 'loss');
      return { mean: new Float32Array(ex.memory.buffer, mean, 1)[0], perToken: this.#k.read(per, batch, length - 1).data };
    });
  }

  /** The next-token logits of one sequence: (length - 1) x vocab. */
  logits(sequence) {
    this.#live('logits');
    return this.#run(sequence, 'sequence', (arena, ex, tokens, ws, batch, length) => {
      const out = arena.floats((length - 1) * this.vocab);
      this.#k.check(ex.attn_tf_forward(0, 0, out, 0, this.#model, tokens, 1, length, ws), 'logits');
      return this.#k.read(out, length - 1, this.vocab);
    }, true);
  }

  /** Attention weights on one sequence: weights[layer][head], each (length - 1) x (length - 1). */
  attention(sequence) {
    this.#live('attention');
    return this.#run(sequence, 'sequence', (arena, ex, tokens, ws, batch, length) => {
      const T = length - 1;
      const out = arena.floats(this.layers * this.heads * T * T);
      this.#k.check(ex.attn_tf_forward(0, 0, 0, out, this.#model, tokens, 1, length, ws), 'attention');
      return Array.from({ length: this.layers }, (_, l) => Array.from({ length: this.heads },
        (_, h) => this.#k.read(out + 4 * (l * this.heads + h) * T * T, T, T)));
    }, true);
  }

  /** Switch a head's output off (true) or back on (false), for every later call. */
  ablate(layer, head, off = true) {
    this.#live('ablate');
    toInteger(layer, 'layer', { max: this.layers - 1 });
    toInteger(head, 'head', { max: this.heads - 1 });
    const flag = toFlag(off, 'off', true);
    new Uint8Array(this.#k.ex.memory.buffer, this.#off, this.layers * this.heads)[layer * this.heads + head] = flag ? 1 : 0;
  }

  /**
   * `options.steps` new tokens after `prompt` (token ids), decoded with a KV
   * cache in wasm: strategy 'greedy' (default), 'sample' (temperature, seed)
   * or 'beam' (beam: its width, default 4). Returns {tokens, logProb,
   * logProbs}: the new tokens, and their log-probabilities under the model.
   */
  generate(prompt, options) {
    this.#live('generate');
    return generate(this.#k, this.#model, this.#config, this, prompt, options);
  }

  // Fresh copies of every tensor of the block at `ptr`.
  #block(ptr) {
    const out = {};
    for (const { name, rows, cols, offset } of this.#tensors) out[name] = this.#k.read(ptr + 4 * offset, rows, cols).data;
    return out;
  }

  /** Every parameter, {name: Float32Array} (row-major; the names: README, web/attention.d.ts). */
  parameters() {
    this.#live('parameters');
    return this.#block(this.#params);
  }

  /**
   * Overwrite the parameters named in `values` (any of parameters()' names,
   * same sizes); all are checked before any is written. AdamW's moments and
   * step count stay as they are.
   */
  setParameters(values) {
    this.#live('setParameters');
    if (values === null || typeof values !== 'object' || isArrayLike(values)) {
      throw new TypeError('setParameters takes an object {name: array of numbers}, like parameters() returns');
    }
    const byName = new Map(this.#tensors.map((t) => [t.name, t]));
    const writes = Object.entries(values).map(([name, v]) => {
      const t = byName.get(name);
      if (!t) throw new RangeError(`setParameters: unknown parameter ${name}; this model has ${[...byName.keys()].join(', ')}`);
      if (!isArrayLike(v)) throw new TypeError(`setParameters: ${name} must be an array of numbers`);
      const n = t.rows * t.cols;
      if (v.length !== n) throw new RangeError(`setParameters: ${name} has ${v.length} values, expected ${t.rows} x ${t.cols} = ${n}`);
      const data = new Float32Array(n);
      for (let i = 0; i < n; i++) {
        if (typeof v[i] !== 'number') throw new TypeError(`setParameters: ${name}[${i}] is ${typeof v[i]}, not a number`);
        data[i] = v[i];
        if (!Number.isFinite(data[i])) throw new RangeError(`setParameters: ${name}[${i}] is ${v[i]}; values must be finite (as float32)`);
      }
      return { t, data };
    });
    for (const { t, data } of writes) new Float32Array(this.#k.ex.memory.buffer, this.#params + 4 * t.offset, data.length).set(data);
  }

  /** Free the model's wasm memory; any later call throws. */
  dispose() {
    if (!this.#model) return;
    this.#resident.dispose();
    this.#model = 0;
  }
}

/**
 * A causal decoder trained in wasm (the README's createTransformer):
 * {vocab, context, dModel, heads, layers, mlp: false, layerNorm: false, seed};
 * mlp and layerNorm make each layer a GPT block (pre-norm LayerNorm, GELU MLP
 * of width 4 dModel, a final LayerNorm).
 */
export function createTransformer(k, options) {
  return new Transformer(k, toConfig(options));
}
