// attention-induction: the claims of the figure and of the article's text
// around it, on the figure's own model and budget (the same SIMD build the
// browser runs), for its default seed and two more (the text must hold for
// any seed a reader gives the figure):
//   the task is as the article says (33 tokens of 32, segments of 6 to 16,
//     two layers of two heads of width 32, about 11 500 numbers);
//   for about the first hundred steps both losses stay near ln 32; the loss
//     on the repeats then falls below a tenth of it within a few hundred
//     steps, and below 25% of the first pass's by the end;
//   the loss on the first pass never falls below ln 32: it climbs well above
//     it (to about 4.4) just as copying sets in (when a last-layer head's
//     prefix matching first exceeds 0.5, the figure's milestone), with the
//     probability the model puts on tokens already seen, which on the first
//     pass never come next; it ends a little above ln 32;
//   a layer-1 head puts about half its weight on the previous token (at
//     least 3x the best head of the untrained model); a layer-2 head's
//     prefix-matching score exceeds 0.5;
//   both layer-2 heads off: the repeat loss climbs back above where it
//     started; one of them off: the other still copies (the repeat loss stays
//     below half its start); the clearer layer-1 previous-token head off: the
//     layer-2 stripes break up (prefix matching falls by 0.4 or more) and
//     more than half of what training removed comes back;
//   one layer, same budget: the repeat loss comes down only part of the way
//     (still above half the first pass's), and no head matches prefixes.
// The measured numbers are printed as diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from '../../kit/engine.js';
import {
  ALPHABET, DEFAULTS, createRun, headScores, makeBatch, repeatedSequence, scoreHeads, splitLoss,
} from '../../../web/figures/induction/induction.model.js';
import { uniform } from '../../../web/kit/random.js';
import { tablesOf } from '../../kit/tables.js';

const strings = await tablesOf('induction');

const attn = await engine();
const f2 = (x) => x.toFixed(3);
const CHANCE = Math.log(DEFAULTS.vocab);
const SEEDS = [DEFAULTS.seed, 2, 3];
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

test('the credits: Elhage et al. (2021) named the heads, Olsson et al. (2022) gave prefix matching and copying; both in Works cited', () => {
  const html = readFileSync(new URL('../../../web/article.html', import.meta.url), 'utf8');
  const [article, cited] = html.split('<p>Works cited above:</p>');
  assert.match(article, /Elhage and colleagues \(2021\)[^.]*named the first kind a <em>previous-token head<\/em> and the second an <em>induction head<\/em>/);
  assert.match(article, /Olsson and colleagues \(2022\) gave the two properties by which an induction head is recognised, prefix matching and copying/);
  assert.match(cited, /<li>Elhage, [^<]*\(2021\), "A Mathematical Framework for Transformer Circuits"/);
  assert.match(cited, /<li>Olsson, [^<]*\(2022\), "In-context Learning and Induction Heads"/);
  // and the figure's own note, in both languages
  assert.match(strings.en.note, /Elhage et al\. \(2021\) named previous-token heads and induction heads; prefix matching is the first of the two criteria by which Olsson et al\. \(2022\)/);
  assert.match(strings.zh.note, /名字来自 Elhage 等人（2021）；前缀匹配是 Olsson 等人（2022）/);
});

test('the model the article describes: 33 tokens of 32, segments of 6 to 16, two layers of two heads of width 32, about 11 500 numbers', () => {
  assert.deepEqual([DEFAULTS.context + 1, DEFAULTS.vocab, ALPHABET.length, new Set(ALPHABET).size], [33, 32, 32, 32]);
  assert.deepEqual([DEFAULTS.minPeriod, DEFAULTS.maxPeriod, DEFAULTS.layers, DEFAULTS.heads, DEFAULTS.dModel], [6, 16, 2, 2, 32]);
  const run = createRun(attn, {});
  const count = Object.values(run.model.parameters()).reduce((n, p) => n + p.length, 0);
  run.dispose();
  assert.ok(Math.abs(count - 11500) < 100, `${count} numbers`);
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

/**
 * The mean probability the model gives, on the first pass, to the tokens
 * already seen in the sequence (which on the first pass never come next).
 */
function seenMass(model, { sequences, periods }) {
  const V = DEFAULTS.vocab;
  let [sum, n] = [0, 0];
  sequences.forEach((seq, b) => {
    const { data } = model.logits(seq);
    for (let t = 0; t + 1 < periods[b]; t++) { // predicting token t + 1, still on the first pass
      const row = data.subarray(t * V, t * V + V);
      const max = Math.max(...row);
      const e = row.map((x) => Math.exp(x - max));
      const total = e.reduce((a, x) => a + x, 0);
      for (let j = 0; j <= t; j++) sum += e[seq[j]] / total;
      n++;
    }
  });
  return sum / n;
}

/** A two-layer run of `seed` to the end of the budget, with the seen mass at every point of the curve up to step 400. */
function trainTwoLayers(seed) {
  const run = createRun(attn, { layers: 2, seed });
  const untrained = run.scores();
  const seen = new Map([[0, seenMass(run.model, run.evalSet)]]);
  while (!run.done) {
    run.train(DEFAULTS.evalEvery);
    if (run.step <= 400) seen.set(run.step, seenMass(run.model, run.evalSet));
  }
  return { run, untrained, seen };
}

for (const seed of SEEDS) {
  test(`seed ${seed}: two layers learn to copy, the first pass climbs above a uniform guess as copying sets in, ablation undoes it`, (t) => {
    const { run: two, untrained, seen } = trainTwoLayers(seed);
    const curve = two.curve;
    const [start, end] = [curve[0], curve.at(-1)];
    const scores = two.scores();
    t.diagnostic(`2 layers, ${DEFAULTS.steps} steps: first pass ${f2(start.first)} -> ${f2(end.first)}, repeats ${f2(start.repeats)} -> ${f2(end.repeats)} (${(100 * end.repeats / end.first).toFixed(1)}% of the first pass)`);
    t.diagnostic(`scores: ${table(scores)}`);

    // the curve as the article tells it
    const early = curve.filter((p) => p.step <= 90);
    const far = Math.max(...early.map((p) => Math.max(Math.abs(p.first - CHANCE), Math.abs(p.repeats - CHANCE))));
    assert.ok(far < 0.35, `up to step 90 both losses stay near ln 32: ${f2(far)} away`);
    const tenth = curve.find((p) => p.repeats < CHANCE / 10);
    t.diagnostic(`repeats below a tenth of ln 32 at step ${tenth?.step}`);
    assert.ok(tenth && tenth.step <= 400, `the repeat loss falls below a tenth of ln 32 within a few hundred steps (step ${tenth?.step})`);
    assert.ok(end.repeats < 0.25 * end.first, `repeat loss ${end.repeats} vs first pass ${end.first}`);

    // the first pass never falls below a uniform guess, and climbs above it as copying sets in
    const peak = curve.reduce((a, p) => (p.first > a.first ? p : a));
    t.diagnostic(`milestone (a layer-2 prefix-matching score > 0.5) at step ${two.milestone?.step}; first-pass peak ${f2(peak.first)} at step ${peak.step}; `
      + `probability on tokens already seen, on the first pass: ${f2(seen.get(0))} untrained, ${f2(seen.get(peak.step))} at the peak`);
    assert.ok(two.milestone && two.milestone.step <= 300, `milestone ${two.milestone?.step}`);
    assert.ok(Math.min(...curve.map((p) => p.first)) > CHANCE - 0.05, 'the first-pass loss does not fall below a uniform guess');
    assert.ok(peak.first > 4.2 && peak.first < 4.7, `the first pass climbs to about 4.4: ${peak.first}`);
    assert.ok(Math.abs(peak.step - two.milestone.step) <= 60, `the climb comes as copying sets in: peak at ${peak.step}, milestone at ${two.milestone.step}`);
    assert.ok(seen.get(peak.step) > 2 * seen.get(0), `at the peak, weight on tokens already seen: ${seen.get(peak.step)} vs ${seen.get(0)} untrained`);
    assert.ok(end.first > CHANCE && end.first < peak.first - 0.4, `it ends a little above ln 32: ${end.first}`);
    const atM = curve.find((p) => p.step === two.milestone.step);
    assert.ok(atM.repeats < start.repeats - 0.5, `at the milestone the repeat loss is falling: ${atM.repeats}`);

    // the two kinds of head
    const untrainedPrev = Math.max(...untrained[0].map((s) => s.previousToken));
    const prevHead = scores[0].reduce((best, s, h) => (s.previousToken > scores[0][best].previousToken ? h : best), 0);
    const bestPrev = scores[0][prevHead].previousToken;
    assert.ok(bestPrev > 0.4 && bestPrev < 0.65, `a layer-1 head puts about half its weight on the previous token: ${bestPrev}`);
    assert.ok(bestPrev >= 3 * untrainedPrev, `layer-1 previous-token ${bestPrev} vs untrained ${untrainedPrev}`);
    const l2 = scores[1].map((s) => s.prefixMatching);
    assert.ok(Math.max(...l2) > 0.5, `layer-2 prefix matching ${l2}`);

    // ablation
    const removed = start.repeats - end.repeats;
    const both = two.ablated([[1, 0], [1, 1]]);
    const ones = [0, 1].map((h) => two.ablated([[1, h]]));
    const withoutPrev = two.ablated([[0, prevHead]]);
    two.model.ablate(0, prevHead, true);
    const stripes = scoreHeads(two.model, two.evalSet.sequences)[1].map((s) => s.prefixMatching);
    two.model.ablate(0, prevHead, false);
    const back = (withoutPrev.repeats - end.repeats) / removed;
    t.diagnostic(`repeats with both layer-2 heads off ${f2(both.repeats)} (untrained ${f2(start.repeats)}); with one off ${ones.map((x) => f2(x.repeats)).join(', ')}; `
      + `with L1H${prevHead + 1} off ${f2(withoutPrev.repeats)} (${(100 * back).toFixed(0)}% back), layer-2 prefix matching then ${stripes.map(f2).join(', ')}`);
    assert.ok(both.repeats > start.repeats, 'both layer-2 heads off: the repeat loss climbs back above where it started');
    for (const one of ones) assert.ok(one.repeats < 0.5 * start.repeats, `one layer-2 head off: the other still copies (${one.repeats})`);
    assert.ok(back > 0.5, `the previous-token head off: more than half way back up (${back})`);
    stripes.forEach((s, h) => assert.ok(l2[h] - s >= 0.4, `the previous-token head off: L2H${h + 1}'s stripes break up (${l2[h]} -> ${s})`));
    two.dispose();

    const one = createRun(attn, { layers: 1, seed });
    one.train(DEFAULTS.steps);
    const [s1, e1] = [one.curve[0], one.curve.at(-1)];
    const oneScores = one.scores();
    t.diagnostic(`1 layer, same budget: first pass ${f2(s1.first)} -> ${f2(e1.first)}, repeats ${f2(s1.repeats)} -> ${f2(e1.repeats)} (${(100 * e1.repeats / e1.first).toFixed(1)}%); scores: ${table(oneScores)}`);
    assert.ok(e1.repeats < s1.repeats - 0.5 && e1.repeats > 0.5 * e1.first, `one layer: the repeats come down only part of the way: ${s1.repeats} -> ${e1.repeats}`);
    assert.ok(oneScores[0].every((s) => s.prefixMatching < 0.3), 'one layer: no head matches prefixes');
    assert.equal(one.milestone, null);
    one.dispose();
    assert.equal(attn.memoryInUse(), 0);
  });
}
