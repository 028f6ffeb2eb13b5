// generate.test.js: model.generate (web/api/generate.js, src/generate.c):
// the KV-cached logits equal the full forward pass's at every step (also
// past the context, where the cache restarts, with heads off, and for every
// flag combination), beam search's sequence log-probability is at least
// greedy's, sampling is reproducible for a seed and follows the model's
// distribution, bad options are clear errors, nothing is left allocated.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { forEachBuild } from './helpers.js';
import { sequences } from './transformer-helpers.js';

const FLAGS = [{ mlp: true, layerNorm: true }, { mlp: false, layerNorm: false }, { mlp: true, layerNorm: false }, { mlp: false, layerNorm: true }];

/**
 * A small model trained on a repeating pattern: after 40 steps its
 * predictions are far from uniform; after a few, still uncertain (where beam
 * search and sampling have choices to make).
 */
function trained(attn, flags, { vocab = 9, context = 8, seed = 1, steps = 40 } = {}) {
  const cfg = { vocab, context, dModel: 8, heads: 2, layers: 2, ...flags, seed };
  const m = attn.createTransformer(cfg);
  const pattern = [0, 1, 2, 3, 1, 4, 5, 2, 6, 7, 8, 3];
  for (let k = 0; k < steps; k++) {
    const seqs = [0, 1, 2, 3].map((b) => Array.from({ length: context + 1 }, (_, t) => pattern[(t + 3 * b + k) % pattern.length] % vocab));
    m.trainStep(seqs, { lr: 0.02 });
  }
  return m;
}

function logSoftmaxRow(data, r, V) {
  let max = -Infinity;
  for (let c = 0; c < V; c++) max = Math.max(max, data[r * V + c]);
  let sum = 0;
  for (let c = 0; c < V; c++) sum += Math.exp(data[r * V + c] - max);
  return Array.from({ length: V }, (_, c) => data[r * V + c] - max - Math.log(sum));
}

/**
 * The log-probabilities of the next token after each prefix, recomputed by
 * the full forward pass over the window generate.js keeps (the last
 * ceil(context / 2) tokens once the context is full).
 */
function recomputed(m, prompt, tokens) {
  const history = [...prompt, ...tokens];
  let start = Math.max(0, prompt.length - m.context);
  return tokens.map((_, i) => {
    const length = prompt.length + i;
    if (length - start > m.context) start = length - Math.ceil(m.context / 2);
    const window = [...history.slice(start, length), 0];
    return logSoftmaxRow(m.logits(window).data, length - start - 1, m.vocab);
  });
}

forEachBuild('generate', (attn) => {
  test('cached logits equal recomputed ones at every step: within the context, past it, for every flag combination', () => {
    for (const flags of FLAGS) {
      const m = trained(attn, flags);
      for (const [prompt, steps] of [[[0, 1], 5], [[2], 20], [sequences(m, 1, 11, 3)[0], 9]]) {
        const g = m.generate(prompt, { steps });
        assert.equal(g.tokens.length, steps);
        const want = recomputed(m, prompt, g.tokens);
        g.tokens.forEach((t, i) => {
          const label = `${JSON.stringify(flags)}, prompt ${prompt}, step ${i}`;
          // float32 logits of size ~10 through different summation orders: 1e-4 absolute on the log-probability
          assert.ok(Math.abs(g.logProbs[i] - want[i][t]) < 1e-4, `${label}: cached ${g.logProbs[i]}, recomputed ${want[i][t]}`);
          const best = Math.max(...want[i]);
          assert.ok(want[i][t] >= best - 1e-4, `${label}: greedy picked ${t}, recomputed best ${want[i].indexOf(best)}`);
        });
        assert.ok(Math.abs(g.logProb - g.logProbs.reduce((a, b) => a + b, 0)) < 1e-9);
      }
      m.dispose();
    }
    assert.equal(attn.memoryInUse(), 0);
  });

  test('a switched-off head is off in the cached path too', () => {
    const m = trained(attn, { mlp: true, layerNorm: true });
    const before = m.generate([0, 1, 2], { steps: 6 });
    m.ablate(1, 0);
    const g = m.generate([0, 1, 2], { steps: 6 });
    assert.notDeepEqual(g.logProbs, before.logProbs);
    recomputed(m, [0, 1, 2], g.tokens).forEach((row, i) => assert.ok(Math.abs(g.logProbs[i] - row[g.tokens[i]]) < 1e-4, `step ${i}`));
    m.dispose();
  });

  test('beam search: its sequence log-probability is at least greedy\'s; width 1 is greedy; its log-probability is the model\'s', () => {
    const m = trained(attn, { mlp: true, layerNorm: true }, { seed: 2, steps: 4 });
    let better = 0;
    for (const prompt of [[0], [3, 1], [5, 2, 6], [8, 7, 8, 7], [4]]) {
      const greedy = m.generate(prompt, { steps: 12 });
      assert.deepEqual(m.generate(prompt, { steps: 12, strategy: 'beam', beam: 1 }), greedy);
      for (const beam of [2, 4, 9]) {
        const b = m.generate(prompt, { steps: 12, strategy: 'beam', beam });
        assert.equal(b.tokens.length, 12);
        assert.ok(b.logProb >= greedy.logProb - 1e-9, `beam ${beam}, prompt ${prompt}: ${b.logProb} < greedy ${greedy.logProb}`);
        if (b.logProb > greedy.logProb + 1e-6) better++;
        const want = recomputed(m, prompt, b.tokens);
        b.tokens.forEach((t, i) => assert.ok(Math.abs(b.logProbs[i] - want[i][t]) < 1e-4, `beam ${beam} step ${i}`));
      }
    }
    assert.ok(better > 0, 'beam search finds a more probable sequence than greedy somewhere');
    m.dispose();
  });

  test('sampling: the same seed gives the same text, another seed another; first tokens follow the model\'s probabilities', () => {
    const m = trained(attn, { mlp: true, layerNorm: true }, { steps: 4 });
    const a = m.generate([0, 1], { steps: 30, strategy: 'sample', seed: 7 });
    assert.deepEqual(m.generate([0, 1], { steps: 30, strategy: 'sample', seed: 7 }), a);
    assert.notDeepEqual(m.generate([0, 1], { steps: 30, strategy: 'sample', seed: 8 }).tokens, a.tokens);
    // temperature 2 flattens the distribution; 1000 first tokens against it (3 standard errors, + rounding)
    const T = 2;
    const row = logSoftmaxRow(m.logits([0, 1, 0]).data, 1, m.vocab).map((x) => x / T);
    const norm = Math.log(row.reduce((s, x) => s + Math.exp(x), 0));
    const p = row.map((x) => Math.exp(x - norm));
    const counts = new Array(m.vocab).fill(0);
    const n = 1000;
    for (let s = 0; s < n; s++) counts[m.generate([0, 1], { steps: 1, strategy: 'sample', temperature: T, seed: s }).tokens[0]]++;
    p.forEach((pc, c) => assert.ok(Math.abs(counts[c] / n - pc) <= 3 * Math.sqrt(pc * (1 - pc) / n) + 0.01, `token ${c}: ${counts[c] / n} vs ${pc}`));
    // a very low temperature samples the greedy choice
    assert.deepEqual(m.generate([0, 1], { steps: 8, strategy: 'sample', temperature: 1e-3, seed: 1 }).tokens, m.generate([0, 1], { steps: 8 }).tokens);
    m.dispose();
  });

  test('bad prompts and options: clear errors, nothing left allocated; a disposed model refuses', () => {
    const m = attn.createTransformer({ vocab: 5, context: 4, dModel: 4, heads: 2, layers: 1, mlp: true, layerNorm: true });
    const start = attn.memoryInUse();
    const bad = [
      [() => m.generate([0, 1]), TypeError, /generate: steps is required/],
      [() => m.generate([0, 1], { steps: 0 }), RangeError, /steps must be a whole number from 1/],
      [() => m.generate([0, 1], { steps: 2.5 }), RangeError, /steps/],
      [() => m.generate([0, 1], { steps: '3' }), TypeError, /steps must be a number/],
      [() => m.generate([0, 1], 3), TypeError, /generate options must be an object/],
      [() => m.generate([0, 1], { steps: 2, strategy: 'top-k' }), RangeError, /strategy must be 'greedy', 'sample' or 'beam', got 'top-k'/],
      [() => m.generate([0, 1], { steps: 2, strategy: 1 }), TypeError, /strategy must be a string/],
      [() => m.generate([0, 1], { steps: 2, strategy: 'sample', temperature: 0 }), RangeError, /temperature must be finite and > 0, got 0/],
      [() => m.generate([0, 1], { steps: 2, strategy: 'sample', temperature: NaN }), RangeError, /temperature/],
      [() => m.generate([0, 1], { steps: 2, temperature: 0.5 }), RangeError, /temperature applies to strategy 'sample' only/],
      [() => m.generate([0, 1], { steps: 2, strategy: 'beam', beam: 0 }), RangeError, /beam must be a whole number from 1 to 64, got 0/],
      [() => m.generate([0, 1], { steps: 2, beam: 3 }), RangeError, /beam applies to strategy 'beam' only/],
      [() => m.generate([0, 1], { steps: 2, seed: 3 }), RangeError, /seed applies to strategy 'sample' only/],
      [() => m.generate([0, 1], { steps: 2, strategy: 'sample', seed: -1 }), RangeError, /seed must be a whole number from 0/],
      [() => m.generate([0, 1], { steps: 2, beams: 3 }), RangeError, /unknown option 'beams'; the options are steps, strategy, temperature, beam, seed/],
      [() => m.generate([], { steps: 2 }), RangeError, /prompt is empty/],
      [() => m.generate('ab', { steps: 2 }), TypeError, /prompt must be an array of token ids/],
      [() => m.generate([0, 5], { steps: 2 }), RangeError, /prompt\[1\] is 5; token ids are whole numbers from 0 to vocab - 1 = 4/],
      [() => m.generate([0, '1'], { steps: 2 }), TypeError, /prompt\[1\] is string/],
    ];
    for (const [call, type, message] of bad) {
      assert.throws(call, (e) => e instanceof type && message.test(e.message), String(call));
      assert.equal(attn.memoryInUse(), start, `${call} left memory behind`);
    }
    m.generate([0, 1, 2, 3, 4, 0], { steps: 9, strategy: 'beam', beam: 3 }); // a prompt longer than the context is fine
    assert.equal(attn.memoryInUse(), start);
    m.dispose();
    assert.throws(() => m.generate([0], { steps: 1 }), /this transformer was disposed/);
  });
});
