// pool-train.test.js: a transformer trained data-parallel over an
// attentionPool's workers (pool.createTransformer): each worker a share of
// the batch, the gradients summed in worker order, one AdamW update on every
// copy. With one worker it is the engine's model to the bit; with 2 and 3 its
// loss curve stays within float32 rounding of the one-engine run (the shares'
// gradients are summed in another order than the whole batch's). Bad input
// rejects with the engine's errors before anything is posted; dispose gives
// the workers' memory back; a worker that stops ends the model with an Error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { attentionPool, loadAttention } from '../../web/attention.js';
import { poolState } from '../../web/api/pool.js';
import { rng } from './helpers.js';

// attention-induction's model (web/figures/induction): 2 layers, 2 heads
const CFG = { vocab: 16, context: 12, dModel: 16, heads: 2, layers: 2, seed: 4 };
const GPT = { vocab: 12, context: 8, dModel: 12, heads: 3, layers: 2, mlp: true, layerNorm: true, seed: 9 };
const OPT = { lr: 0.02, weightDecay: 0.01 };
const STEPS = 20;
// float32 over 20 AdamW steps: the shares' gradients summed in another order
// than the batch's change each gradient in its last bits; the losses seen
// differ by 2.4e-7 (a float32 step near 2.8) and the parameters by 1.0e-6
// (both models, 2 and 3 workers): tolerances with a margin of ~40 and 100
const LOSS_TOLERANCE = 1e-5;
const PARAM_TOLERANCE = 1e-4;

const batches = (cfg, count, batch) => {
  const rs = rng(cfg.seed);
  return Array.from({ length: count }, () => Array.from({ length: batch },
    () => Array.from(rs.uniform(0, cfg.vocab, cfg.context + 1), (u) => Math.floor(u))));
};

const maxDiff = (a, b) => Math.max(...Object.keys(a).map((k) => Math.max(...a[k].map((v, j) => Math.abs(v - b[k][j])))));

describe('attentionPool: data-parallel training', () => {
  it('one worker: the engine\'s model, to the bit', async () => {
    const attn = await loadAttention({ build: 'simd' });
    const pool = await attentionPool({ build: 'simd', workers: 1 });
    const [a, b] = [attn.createTransformer(CFG), await pool.createTransformer(CFG)];
    for (const seqs of batches(CFG, 5, 6)) assert.equal(await b.trainStep(seqs, OPT), a.trainStep(seqs, OPT));
    const [pa, pb] = [a.parameters(), await b.parameters()];
    for (const name of Object.keys(pa)) assert.ok(Buffer.from(pa[name].buffer).equals(Buffer.from(pb[name].buffer)), name);
    await b.dispose();
    assert.deepEqual(await pool.memoryInUse(), [0]);
    await pool.close();
  });

  for (const [what, cfg] of [['attention-only layers', CFG], ['GPT blocks (LayerNorm, MLP)', GPT]]) {
    it(`2 and 3 workers, ${what}: the loss curve within float32 rounding of the one-engine run`, async () => {
      const attn = await loadAttention();
      const runs = [];
      for (const workers of [2, 3]) {
        const pool = await attentionPool({ workers });
        const model = await pool.createTransformer(cfg);
        assert.equal(model.dModel, cfg.dModel);
        const one = attn.createTransformer(cfg);
        let worst = 0;
        for (const seqs of batches(cfg, STEPS, 7)) { // 7 sequences: shares of 4 + 3, or 3 + 2 + 2
          const [l1, lp] = [one.trainStep(seqs, OPT), await model.trainStep(seqs, OPT)];
          worst = Math.max(worst, Math.abs(l1 - lp));
        }
        const params = maxDiff(one.parameters(), await model.parameters());
        runs.push({ workers, worst, params });
        assert.ok(worst <= LOSS_TOLERANCE, `${workers} workers: losses differ by ${worst}`);
        assert.ok(params <= PARAM_TOLERANCE, `${workers} workers: parameters differ by ${params}`);
        const probe = batches({ ...cfg, seed: 99 }, 1, 3)[0];
        assert.ok(Math.abs((await model.loss(probe)).mean - one.loss(probe).mean) <= LOSS_TOLERANCE, 'loss() of the trained copies');
        await model.dispose();
        assert.deepEqual(await pool.memoryInUse(), new Array(workers).fill(0), 'the copies\' memory given back');
        one.dispose();
        await pool.close();
      }
      console.log(`${what}: ${runs.map((r) => `${r.workers} workers, losses within ${r.worst.toExponential(1)}, parameters ${r.params.toExponential(1)}`).join('; ')}`);
    });
  }

  it('bad input rejects with the engine\'s errors before anything is posted; a stopped worker ends the model', async () => {
    const attn = await loadAttention();
    const pool = await attentionPool({ workers: 2 });
    const state = poolState.get(pool);
    const engineError = (f) => { try { f(); } catch (e) { return e; } return null; };
    const bad = [
      [() => attn.createTransformer({ ...CFG, heads: 3 }), () => pool.createTransformer({ ...CFG, heads: 3 })],
    ];
    const model = await pool.createTransformer(CFG);
    const one = attn.createTransformer(CFG);
    for (const [seqs, opts] of [[[[1, 2, 99]], OPT], [[], OPT], [[[1, 2, 3], [1, 2]], OPT], [[[1, 2, 3]], { lr: -1 }], [[[1, 2, 3]], { beta1: 1 }]]) {
      bad.push([() => one.trainStep(seqs, opts), () => model.trainStep(seqs, opts)]);
    }
    for (const [engine, pooled] of bad) {
      const want = engineError(engine);
      assert.ok(want, 'the engine took it');
      const posted = state.posted;
      await assert.rejects(pooled(), (err) => err.constructor === want.constructor && err.message === want.message);
      assert.equal(state.posted, posted, `posted for: ${want.message}`);
    }
    state.slots[1].thread.worker.terminate();
    await new Promise((r) => setTimeout(r, 100));
    await assert.rejects(model.trainStep(batches(CFG, 1, 4)[0], OPT), /a worker that held a copy of this transformer stopped; make another with pool.createTransformer\(\)/);
    const again = await pool.createTransformer(CFG);
    assert.equal(typeof await again.trainStep(batches(CFG, 1, 4)[0], OPT), 'number');
    await pool.close();
    await assert.rejects(again.trainStep(batches(CFG, 1, 4)[0], OPT), /this pool is closed/);
  });
});
