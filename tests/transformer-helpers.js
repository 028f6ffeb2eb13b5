// transformer-helpers.js: what the GPT-block and generation tests share:
// random token batches and a normwise comparison of named tensors.
import assert from 'node:assert/strict';

import { uniform } from '../web/figures/random.js';

/** `batch` random sequences of `length` tokens, from a seed. */
export function sequences(cfg, batch, length, seed) {
  const next = uniform(seed);
  return Array.from({ length: batch }, () => Array.from({ length }, () => Math.floor(next() * cfg.vocab)));
}

/** Every value of every tensor of `got` within rtol of `want`'s tensor (normwise), plus atol. */
export function assertTensorsClose(got, want, rtol, label, { atol = 0, skip = () => false } = {}) {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${label}: tensor names`);
  for (const name of Object.keys(want)) {
    if (skip(name)) continue;
    const [g, w] = [got[name], want[name]];
    assert.equal(g.length, w.length, `${label}: ${name} size`);
    let scale = 0;
    for (const x of w) scale = Math.max(scale, Math.abs(x));
    const tol = rtol * scale + atol;
    for (let i = 0; i < w.length; i++) {
      if (!(Math.abs(g[i] - w[i]) <= tol)) assert.fail(`${label}: ${name}[${i}] = ${g[i]}, reference ${w[i]} (tolerance ${tol.toExponential(2)})`);
    }
  }
}
