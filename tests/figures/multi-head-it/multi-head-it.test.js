// Claims of attention-multi-head-it (DESIGN.md), checked on the figure's model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { itModel, topTwo, truth, ADJ, ANIMAL, ROAD } from '../../../web/figures/multi-head-it/multi-head-it.model.js';

const attn = await engine();
const ADJECTIVES = ['tired', 'wide'];
const TIPS = [-2, -1, 0, 1, 2];

test('fact 1: toggling tired/wide leaves the ratios of every other weight from "it" unchanged', () => {
  for (const heads of [1, 2]) {
    for (const tip of TIPS) {
      const [a, b] = ADJECTIVES.map((adjective) => itModel(attn, { heads, adjective, tip }));
      for (let hd = 0; hd < heads; hd++) {
        const [wa, wb] = [a.itWeights[hd], b.itWeights[hd]];
        for (let i = 0; i < wa.length; i++) {
          for (let j = 0; j < wa.length; j++) {
            if (i === ADJ || j === ADJ) continue;
            // float32 weights: relative error of a ratio stays within a few ulps
            const ra = wa[i] / wa[j];
            const rb = wb[i] / wb[j];
            assert.ok(Math.abs(ra - rb) <= 1e-5 * Math.max(ra, rb),
              `heads=${heads} tip=${tip} head ${hd + 1}: w[${i}]/w[${j}] ${ra} vs ${rb}`);
          }
        }
        // so one step alone cannot pick: the animal/road ratio is the same in both sentences
        assert.ok(Math.abs(wa[ANIMAL] / wa[ROAD] - wb[ANIMAL] / wb[ROAD]) < 1e-5 * (wa[ANIMAL] / wa[ROAD]));
      }
    }
  }
});

test('fact 2: two heads name the right referent for both adjectives, with a clearly larger margin than one head', () => {
  for (const adjective of ADJECTIVES) {
    const one = itModel(attn, { heads: 1, adjective });
    const two = itModel(attn, { heads: 2, adjective });
    assert.equal(two.readout.referent, truth(adjective), `two heads, ${adjective}`);
    assert.ok(two.readout.margin > 0.8, `two heads, ${adjective}: margin ${two.readout.margin}`);
    assert.ok(two.readout.margin >= one.readout.margin + 0.3,
      `${adjective}: two-head margin ${two.readout.margin} vs one-head ${one.readout.margin}`);
  }
});

test('fact 2: with two heads one head concentrates on the nouns, the other on the adjective', () => {
  for (const adjective of ADJECTIVES) {
    const [nounHead, adjHead] = itModel(attn, { heads: 2, adjective }).itWeights;
    assert.ok(nounHead[ANIMAL] + nounHead[ROAD] > 0.85, `noun head: ${nounHead}`);
    assert.ok(adjHead[ADJ] > 0.8, `adjective head: ${adjHead}`);
    const [single] = itModel(attn, { heads: 1, adjective }).itWeights;
    // one head: the nouns and the adjective share one distribution
    for (const i of [ANIMAL, ROAD, ADJ]) assert.ok(single[i] > 0.25 && single[i] < 0.4, `one head w[${i}] = ${single[i]}`);
  }
});

test('fact 2: tipping the single head toward one noun makes its read-out wrong; two heads stay right', () => {
  // toward "animal" breaks "wide"; toward "road" weakens "tired"
  const oneWide = itModel(attn, { heads: 1, adjective: 'wide', tip: 1.5 });
  assert.equal(oneWide.readout.referent, 'animal');
  const oneTired = itModel(attn, { heads: 1, adjective: 'tired', tip: -2 });
  assert.equal(oneTired.readout.referent, 'road');
  for (const tip of TIPS) {
    for (const adjective of ADJECTIVES) {
      const two = itModel(attn, { heads: 2, adjective, tip });
      assert.equal(two.readout.referent, truth(adjective), `two heads ${adjective} tip ${tip}`);
      assert.ok(two.readout.margin > 0.8);
    }
  }
});

test('switching a head off removes what it carried', () => {
  for (const adjective of ADJECTIVES) {
    const noAdj = itModel(attn, { heads: 2, adjective, off: [false, true] });
    assert.ok(noAdj.readout.margin < 1e-6, 'without the adjective head the read-out cannot decide');
    assert.equal(noAdj.gathered[1], 0);
    const noNoun = itModel(attn, { heads: 2, adjective, off: [true, false] });
    assert.equal(noNoun.gathered[0], 0, 'without the noun head "it" no longer looks for a noun');
    assert.ok(noNoun.step2[ADJ] > 0.2, 'and the read-out step drifts to the adjective itself');
  }
});

test('the same total width: one head of 6 or two heads of 3, weights 6x6', () => {
  for (const heads of [1, 2]) {
    const r = itModel(attn, { heads });
    for (const k of ['Wq', 'Wk', 'Wv', 'Wo']) assert.deepEqual([r.W[k].rows, r.W[k].cols], [6, 6]);
    assert.equal(r.itWeights.length, heads);
    for (const w of r.itWeights) assert.ok(Math.abs(w.reduce((a, b) => a + b, 0) - 1) < 1e-5);
  }
});

test('the article\'s words: every weight from "it" is identical for tired and wide (the adjective\'s too), margins about 50 and 90 points, one head turns wrong near 0.5 toward the wrong noun and only grows surer toward the right one', () => {
  for (const heads of [1, 2]) {
    for (const tip of TIPS) {
      const [a, b] = ['tired', 'wide'].map((adjective) => itModel(attn, { heads, adjective, tip }));
      a.itWeights.forEach((w, hd) => assert.deepEqual(Array.from(w), Array.from(b.itWeights[hd]), `heads=${heads} tip=${tip} head ${hd + 1}`));
    }
  }
  for (const adjective of ['tired', 'wide']) {
    const [one, two] = [1, 2].map((heads) => itModel(attn, { heads, adjective }).readout);
    assert.ok(Math.abs(one.margin - 0.5) < 0.05, `one head, ${adjective}: margin ${one.margin}`);
    assert.ok(Math.abs(two.margin - 0.9) < 0.05, `two heads, ${adjective}: margin ${two.margin}`);
    const right = adjective === 'tired' ? 1 : -1; // the tip that leans toward the right noun
    let last = one.margin;
    for (let k = 1; k <= 20; k++) {
      const toRight = itModel(attn, { heads: 1, adjective, tip: right * k / 10 }).readout;
      assert.equal(toRight.referent, truth(adjective));
      assert.ok(toRight.margin > last, `leaning ${k / 10} toward the right noun makes it surer`);
      last = toRight.margin;
      const toWrong = itModel(attn, { heads: 1, adjective, tip: -right * k / 10 }).readout;
      // right up to 0.4, wrong from 0.6 on: it turns "about halfway"
      if (k <= 4) assert.equal(toWrong.referent, truth(adjective), `leaning ${k / 10} toward the wrong noun`);
      if (k >= 6) assert.notEqual(toWrong.referent, truth(adjective), `leaning ${k / 10} toward the wrong noun`);
    }
  }
});

test('each head\'s two largest weights name the same words in every build (a tie goes to the earlier word)', async () => {
  const { loadAttention } = await import('../../../web/attention.js');
  const builds = await Promise.all(['simd', 'scalar'].map((build) => loadAttention({ build, parts: 'attention' })));
  for (const heads of [1, 2]) {
    for (const adjective of ADJECTIVES) {
      for (const tip of TIPS) {
        const [a, b] = builds.map((e) => itModel(e, { heads, adjective, tip }));
        for (let hd = 0; hd < heads; hd++) {
          assert.deepEqual(topTwo(a.words, a.itWeights[hd]), topTwo(b.words, b.itWeights[hd]), `heads=${heads} ${adjective} tip=${tip} head ${hd + 1}`);
        }
      }
    }
  }
  // seven equal weights, each a last bit apart: the first two words of the seven
  const w = Float32Array.from([0.3, 0.02 + 1e-9, 0.02 - 1e-9, 0.02, 0.02 + 2e-9, 0.02, 0.02, 0.02 - 2e-9].map((x, i) => (i ? x : 1 - 0.14)));
  assert.deepEqual(topTwo(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], w), ['a 86%', 'b 2%']);
});
