// attention-induction: the claims of issue 12, on the figure's own model
// with its default seed and budget (the same SIMD build the browser runs):
//   two layers: the loss on the repeats falls below 25% of the first-pass
//     loss, and a layer-2 head's prefix-matching score exceeds 0.5;
//   one layer, same budget: the repeat loss stays above half the first-pass loss;
//   ablating every layer-2 head whose prefix-matching score exceeds 0.5 gives
//     back at least half of what training removed from the repeat loss;
//   and (DESIGN's catalogue row) a layer-1 head attends to the previous
//     token: its previous-token score ends at least 3x the best layer-1
//     score of the untrained model (about 0.1, near uniform causal weights).
// The measured numbers are printed as diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.js';
import {
  DEFAULTS, createRun, headScores, makeBatch, repeatedSequence, splitLoss,
} from '../../web/figures/induction.model.js';
import { uniform } from '../../web/figures/random.js';

const attn = await engine();
const f2 = (x) => x.toFixed(3);
const table = (scores) => scores.map((heads, l) => heads.map((s, h) =>
  `L${l + 1}H${h + 1} previous-token ${f2(s.previousToken)} prefix-matching ${f2(s.prefixMatching)}`).join(', ')).join('; ');

test('the task: segments of distinct tokens repeated with their period; the same seed gives the same batches', () => {
  const next = uniform(3);
  for (let k = 0; k < 200; k++) {
    const period = 1 + (k % 32);
    const s = repeatedSequence(next, { vocab: 32, length: 33, period });
    assert.equal(new Set(s.subarray(0, period)).size, period, 'the segment has no repeated token');
    s.forEach((t, i) => assert.equal(t, s[i % period]));
  }
  const a = makeBatch(uniform(9), 64);
  const b = makeBatch(uniform(9), 64);
  assert.deepEqual(a, b);
  assert.ok(a.periods.every((p) => p >= DEFAULTS.minPeriod && p <= DEFAULTS.maxPeriod));
  assert.ok(new Set(a.periods).size > 5, 'periods vary');
  assert.ok(a.sequences.every((s) => s.length === DEFAULTS.context + 1));
});

test('the scores: a previous-token pattern scores 1 and 0; an induction pattern 0 and 1', () => {
  const tokens = [5, 1, 7, 2, 5, 1, 7, 2, 5, 1];
  const T = tokens.length;
  const pattern = (target) => {
    const data = new Float32Array(T * T);
    for (let i = 0; i < T; i++) data[i * T + target(i)] = 1;
    return { rows: T, cols: T, data };
  };
  const pool = (s) => ({ prev: s.prev / s.prevCount, match: s.match / s.matched });
  assert.deepEqual(pool(headScores(pattern((i) => Math.max(0, i - 1)), tokens)), { prev: 1, match: 0 });
  // the induction head of period 4 looks at the token after the last copy of its own
  assert.deepEqual(pool(headScores(pattern((i) => (i >= 4 ? i - 3 : i)), tokens)), { prev: 0, match: 1 });
  const split = splitLoss(Float32Array.from({ length: 2 * 5 }, (_, k) => k), [3, 6], 5);
  // sequence 0 (period 3): targets 1, 2 first, 3.. repeats; sequence 1 (period 6): all first
  assert.deepEqual(split, { first: (0 + 1 + 5 + 6 + 7 + 8 + 9) / 7, repeats: (2 + 3 + 4) / 3 });
});

test('claims: two layers learn to copy, one layer does not in the same budget, and ablation undoes it', (t) => {
  const t0 = performance.now();
  const two = createRun(attn, { layers: 2 });
  const untrainedPrev = Math.max(...two.scores()[0].map((s) => s.previousToken));
  two.train(DEFAULTS.steps);
  const [start, end] = [two.curve[0], two.curve.at(-1)];
  const scores = two.scores();
  const l2 = scores[1].map((s) => s.prefixMatching);
  t.diagnostic(`2 layers, ${DEFAULTS.steps} steps (seed ${DEFAULTS.seed}): first pass ${f2(start.first)} -> ${f2(end.first)}, repeats ${f2(start.repeats)} -> ${f2(end.repeats)} (${(100 * end.repeats / end.first).toFixed(1)}% of the first pass)`);
  t.diagnostic(`scores: ${table(scores)}`);
  const formed = two.curve.find((p) => p.repeats < 0.25 * p.first);
  t.diagnostic(`repeats first below 25% of the first pass at step ${formed?.step}`);
  assert.ok(end.repeats < 0.25 * end.first, `repeat loss ${end.repeats} vs first pass ${end.first}`);
  assert.ok(Math.max(...l2) > 0.5, `layer-2 prefix matching ${l2}`);

  const induction = l2.flatMap((s, h) => (s > 0.5 ? [[1, h]] : []));
  const ablated = two.ablated(induction);
  const removed = start.repeats - end.repeats;
  const back = (ablated.repeats - end.repeats) / removed;
  t.diagnostic(`ablating ${induction.map(([l, h]) => `L${l + 1}H${h + 1}`).join(', ')}: repeats ${f2(ablated.repeats)} (trained ${f2(end.repeats)}, untrained ${f2(start.repeats)}): ${(100 * back).toFixed(0)}% of what training removed comes back`);
  assert.ok(back >= 0.5, `ablation gives back ${back}`);
  // the previous-token heads of layer 1 that the induction heads read
  const prevHead = scores[0].reduce((best, s, h) => (s.previousToken > scores[0][best].previousToken ? h : best), 0);
  const withoutPrev = two.ablated([[0, prevHead]]);
  const bestPrev = scores[0][prevHead].previousToken;
  t.diagnostic(`L1H${prevHead + 1} previous-token ${f2(bestPrev)} (untrained best ${f2(untrainedPrev)}); ablating it: repeats ${f2(withoutPrev.repeats)}`);
  assert.ok(bestPrev >= 3 * untrainedPrev, `layer-1 previous-token ${bestPrev} vs untrained ${untrainedPrev}`);
  two.dispose();

  const one = createRun(attn, { layers: 1 });
  one.train(DEFAULTS.steps);
  const [s1, e1] = [one.curve[0], one.curve.at(-1)];
  t.diagnostic(`1 layer, same budget: first pass ${f2(s1.first)} -> ${f2(e1.first)}, repeats ${f2(s1.repeats)} -> ${f2(e1.repeats)} (${(100 * e1.repeats / e1.first).toFixed(1)}%); scores: ${table(one.scores())}`);
  assert.ok(e1.repeats > 0.5 * e1.first, `one layer: repeats ${e1.repeats} vs first pass ${e1.first}`);
  one.dispose();
  assert.equal(attn.memoryInUse(), 0);
  t.diagnostic(`both runs took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
});
