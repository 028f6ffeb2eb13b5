// transformer-helpers.js: what the trainer, GPT-block and generation tests
// share: random token batches and parameters, a normwise comparison of named
// tensors, and the checks both trainer tests make (finite differences, a
// PyTorch fixture's trajectory, the two builds' agreement).
import assert from 'node:assert/strict';

import { simdBuild, scalarBuild } from './helpers.js';
import * as R from './transformer-reference.js';
import { uniform } from '../../web/kit/random.js';

/** `batch` random sequences of `length` tokens, from a seed. */
export function sequences(cfg, batch, length, seed) {
  const next = uniform(seed);
  return Array.from({ length: batch }, () => Array.from({ length }, () => Math.floor(next() * cfg.vocab)));
}

/** Every value of every tensor of `got` within rtol of `want`'s tensor (normwise), plus atol; `skip` names tensors not compared. */
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

/** The parameters of `cfg`, every value uniform in [-1, 1) from a seed (for finite differences). */
export function randomParameters(cfg, seed) {
  const P = R.zeros(cfg);
  const next = uniform(seed);
  for (const t of Object.values(P)) for (let i = 0; i < t.length; i++) t[i] = 2 * next() - 1;
  return P;
}

/** The reference's gradient of every parameter within `tol` of the central finite difference of its mean loss. */
export function assertGradientsMatchFiniteDifferences(P, cfg, seqs, off, tol) {
  const { grads } = R.gradients(P, cfg, seqs, off);
  const h = 1e-5; // truncation ~h^2 |f'''| and rounding ~1e-16 / h: both near 1e-10
  for (const [name, t] of Object.entries(P)) {
    for (let i = 0; i < t.length; i++) {
      const x = t[i];
      t[i] = x + h;
      const up = R.meanLoss(P, cfg, seqs, off);
      t[i] = x - h;
      const down = R.meanLoss(P, cfg, seqs, off);
      t[i] = x;
      const fd = (up - down) / (2 * h);
      assert.ok(Math.abs(fd - grads[name][i]) < tol, `${name}[${i}]: finite difference ${fd}, gradient ${grads[name][i]}`);
    }
  }
}

/** The float64 reference follows a PyTorch fixture (tests/fixtures/): its losses, first gradients and parameters after each AdamW step. */
export function assertReferenceFollowsFixture(fx) {
  const cfg = fx.config;
  const [P, M, V] = [R.zeros(cfg, fx.init), R.zeros(cfg), R.zeros(cfg)];
  fx.steps.forEach((st, k) => {
    const g = R.gradients(P, cfg, st.tokens);
    assert.ok(Math.abs(g.loss - st.loss) < 1e-12, `step ${k + 1} loss ${g.loss} vs ${st.loss}`);
    // The fixture keeps 10 significant digits. bk's exact gradient is 0;
    // float64 rounding leaves ~1e-16, which AdamW turns into steps of
    // lr 1e-16 / eps = 5e-10: the absolute allowance.
    if (st.grads) assertTensorsClose(g.grads, st.grads, 1e-9, 'gradients vs PyTorch', { atol: 1e-12 });
    R.adamw(P, M, V, g.grads, k + 1, fx.adamw);
    assertTensorsClose(P, st.params, 1e-9, `parameters after step ${k + 1}`, { atol: (k + 1) * 2e-9 });
  });
}

/** A build's trainStep follows the float64 reference's AdamW trajectory and the PyTorch fixture's, from the fixture's parameters. */
export function assertTrainerFollowsFixture(attn, fx, rtol) {
  const cfg = fx.config;
  const m = attn.createTransformer(cfg);
  m.setParameters(fx.init);
  const [P, M, V] = [R.zeros(cfg, m.parameters()), R.zeros(cfg), R.zeros(cfg)];
  fx.steps.forEach((st, k) => {
    const g = R.gradients(P, cfg, st.tokens);
    R.adamw(P, M, V, g.grads, k + 1, fx.adamw);
    const loss = m.trainStep(st.tokens, fx.adamw);
    assert.ok(Math.abs(loss - st.loss) <= rtol * st.loss, `step ${k + 1}: loss ${loss}, PyTorch ${st.loss}`);
    // AdamW moves a parameter by about lr per step whatever the gradient's
    // size, so a relative gradient error e moves it by ~lr e: after k steps
    // k lr rtol, plus float32 rounding of the parameters themselves.
    const atol = (k + 1) * fx.adamw.lr * rtol;
    const got = m.parameters();
    assertTensorsClose(got, P, 1e-6, `step ${k + 1} vs the reference`, { atol });
    assertTensorsClose(got, st.params, 1e-6, `step ${k + 1} vs PyTorch`, { atol });
  });
  assert.equal(m.steps, fx.steps.length);
  m.dispose();
}

/** The SIMD and scalar builds make the same initialisation of `cfg` and train it alike for 20 steps. */
export function assertBuildsTrainAlike(cfg, rtol) {
  const [a, b] = [simdBuild.attn.createTransformer(cfg), scalarBuild.attn.createTransformer(cfg)];
  assert.deepEqual(a.parameters(), b.parameters(), 'the initialisation is the same numbers');
  for (let k = 0; k < 20; k++) {
    const seqs = sequences(cfg, 8, 33, 300 + k);
    const [la, lb] = [a.trainStep(seqs, { lr: 0.01 }), b.trainStep(seqs, { lr: 0.01 })];
    assert.ok(Math.abs(la - lb) <= rtol * la, `step ${k}: loss ${la} (SIMD) vs ${lb} (scalar)`);
  }
  assertTensorsClose(a.parameters(), b.parameters(), 1e-3, 'after 20 steps');
  a.dispose();
  b.dispose();
}
