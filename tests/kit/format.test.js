// format.js and the label colour of scale.js: how the figures print numbers
// and pick text colours, so that printed numbers agree with each other and
// every cell label can be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RandomState } from '../unit/mt19937.js';
import { roundShares, pcts, leaders, list, count, sameness, gap, attrNumber, grouped } from '../../web/kit/format.js';
import { labelFor, contrast } from '../../web/kit/draw/scale.js';

const rng = new RandomState(17);
const softmax = (s) => {
  const m = Math.max(...s);
  const e = s.map((v) => Math.exp(v - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / z);
};
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

test('printed rows of weights add up to 1 and stay within one unit of the last digit', () => {
  for (let t = 0; t < 2000; t++) {
    const n = 2 + Math.floor(rng.uniform(0, 11, 1)[0]);
    const w = softmax(rng.uniform(-4, 4, n));
    for (const digits of [0, 1, 2, 3]) {
      const unit = 10 ** -digits;
      const r = roundShares(w, digits);
      r.forEach((v, i) => assert.ok(Math.abs(v - w[i]) < unit * (1 + 1e-9), `${w[i]} printed as ${v}`));
      // random weights are never exactly equal, so largest remainder always reaches the sum
      assert.ok(Math.abs(sum(r) - 1) < 1e-9, `digits ${digits}: ${w} printed as ${r}, sum ${sum(r)}`);
    }
  }
  assert.deepEqual(roundShares([0.6939, 0.1413, 0.1055, 0.0593]), [0.69, 0.14, 0.11, 0.06]);
  assert.deepEqual(pcts([0.335, 0.334, 0.331]), ['34%', '33%', '33%']);
  assert.deepEqual(pcts(new Float32Array([0.335, 0.334, 0.331])), ['34%', '33%', '33%'], 'kernels return Float32Arrays');
});

test('equal weights are printed equal, even when the row then cannot add up exactly', () => {
  assert.deepEqual(roundShares([1 / 3, 1 / 3, 1 / 3]), [0.33, 0.33, 0.33]);
  assert.deepEqual(pcts([0.25, 0.25, 0.25, 0.25]), ['25%', '25%', '25%', '25%']);
  assert.deepEqual(pcts([0.2, 0.2, 0.2, 0.2, 0.2]), ['20%', '20%', '20%', '20%', '20%']);
  assert.deepEqual(pcts([0.335, 0.335, 0.33]), ['34%', '34%', '33%']);
  for (let t = 0; t < 500; t++) {
    const a = rng.uniform(0, 0.3, 1)[0];
    const w = [a, a, a, 1 - 3 * a];
    const r = roundShares(w);
    assert.ok(r[0] === r[1] && r[1] === r[2], `${w} printed as ${r}`);
  }
});

test('a tie at the printed precision has no single leader', () => {
  assert.deepEqual(leaders([0.25, 0.25, 0.25, 0.25], pcts([0.25, 0.25, 0.25, 0.25])), [0, 1, 2, 3]);
  assert.deepEqual(leaders([0.2004, 0.1996, 0.2, 0.2, 0.2], ['20%', '20%', '20%', '20%', '20%']), [0, 1, 2, 3, 4]);
  assert.deepEqual(leaders([0.1, 0.6, 0.3], ['10%', '60%', '30%']), [1]);
});

test('words: lists, plurals, sameness of float32 results', () => {
  assert.equal(list(['a']), 'a');
  assert.equal(list(['a', 'b', 'c']), 'a, b and c');
  assert.equal(count(1, 'token'), '1 token');
  assert.equal(count(3, 'token'), '3 tokens');
  assert.equal(sameness(0), 'identical');
  assert.equal(sameness(6e-8), 'identicalRounding');
  assert.equal(sameness(0.3), 'different');
  assert.equal(gap(0), '0');
  assert.equal(gap(5.96e-8), '6e-8');
});

test('numeric attributes: anything that is not a finite number falls back; the rest is clamped', () => {
  for (const v of [null, undefined, '', ' ', 'NaN', 'Infinity', '-Infinity', '1e309', 'abc', '1,2']) assert.equal(attrNumber(v, 7, 0, 10), 7, String(v));
  assert.equal(attrNumber('-1e300', 7, 0, 10), 0);
  assert.equal(attrNumber('3.5', 7, 0, 10), 3.5);
  assert.equal(attrNumber('0x10', 7, 0, 100), 16);
});

test('cell labels: black or white, whichever reads better, always at least 4.5:1', () => {
  const checkColour = (rgb) => {
    const label = labelFor(rgb) === '#000000' ? [0, 0, 0] : [255, 255, 255];
    assert.ok(contrast(rgb, label) >= 4.5, `${rgb}: ${contrast(rgb, label)}`);
  };
  for (let t = 0; t < 20000; t++) checkColour(Array.from(rng.uniform(0, 256, 3), Math.floor));
  // the theme colours themselves, and greys around the switch point
  for (const hex of ['#c45a00', '#1f62b4', '#f1f1ee', '#ff9e3d', '#5aa7ff', '#272930']) checkColour([1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)));
  for (let g = 100; g < 140; g++) checkColour([g, g, g]);
});

test('integers grouped by thousands as en-US prints them, without loading a locale', () => {
  for (const n of [0, 7, 999, 1000, 16384, 65536, 1234567, 5_000_000, 2 ** 31, ...rng.uniform(0, 1e9, 200).map(Math.floor)]) {
    assert.equal(grouped(n), n.toLocaleString('en-US'), String(n));
  }
});
