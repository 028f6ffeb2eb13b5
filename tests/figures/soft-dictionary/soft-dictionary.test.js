// Claims of attention-soft-dictionary (DESIGN.md), checked on the figure's model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { translator } from '../../../web/kit/i18n.js';
import { refusedBy } from '../../kit/refused.js';
import { tablesOf } from '../../kit/tables.js';
import { softLookup, nearest, hardDictionary, keyString, largestShare, parseExample, ENTRIES } from '../../../web/figures/soft-dictionary/soft-dictionary.model.js';

const strings = await tablesOf('soft-dictionary');

const attn = await engine();
// A fixed grid of queries over the plane, including every key exactly.
const QUERIES = [...ENTRIES.map((e) => e.at)];
for (let x = -1; x <= 1.001; x += 0.25) for (let y = -1; y <= 1.001; y += 0.25) QUERIES.push([x, y]);
const close = (a, b, tol, what) => a.forEach((v, i) => assert.ok(Math.abs(v - b[i]) <= tol, `${what}: ${a} vs ${b}`));

test('as the temperature goes to 0 the result is the value of the best-matching key (a hard dictionary)', () => {
  for (const q of QUERIES) {
    // ties (a query exactly between two keys) are not a hard dictionary's case
    const d = ENTRIES.map(({ at }) => (at[0] - q[0]) ** 2 + (at[1] - q[1]) ** 2).sort((a, b) => a - b);
    if (d[1] - d[0] < 1e-3) continue;
    const { result, best } = softLookup(attn, q, 1e-4);
    assert.equal(best, nearest(q));
    close(result, ENTRIES[nearest(q)].value, 1e-6, `query ${q}`); // exp(-1e-3/1e-4) < 5e-5 of any other key
  }
});

test('at a key itself, the cold soft lookup returns exactly what the Map returns', () => {
  const map = hardDictionary();
  for (const e of ENTRIES) {
    assert.deepEqual(map.get(keyString(e.at)), e.value);
    close(softLookup(attn, e.at, 1e-4).result, map.get(keyString(e.at)), 1e-6, e.name);
  }
  assert.equal(map.get(keyString([0.3, 0.3])), undefined, 'the Map knows only exact keys');
});

test('as the temperature goes to infinity the result is the mean of all values', () => {
  const mean = [0, 1, 2].map((c) => ENTRIES.reduce((s, e) => s + e.value[c], 0) / ENTRIES.length);
  for (const q of QUERIES) {
    // scores differ by at most ~8, so at T = 1e6 weights are 1/n within 1e-5
    close(softLookup(attn, q, 1e6).result, mean, 1e-5, `query ${q}`);
  }
});

test('the weights always sum to 1 and are never negative', () => {
  for (const T of [1e-4, 0.01, 0.1, 0.5, 1, 10, 1000, 1e6]) {
    for (const q of QUERIES) {
      const { weights } = softLookup(attn, q, T);
      assert.ok(weights.every((w) => w >= 0));
      const sum = weights.reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `T=${T} q=${q}: sum ${sum}`);
    }
  }
});

test('the result is the weighted sum of the values', () => {
  const { weights, result } = softLookup(attn, [0.2, -0.1], 0.3);
  const expected = [0, 1, 2].map((c) => ENTRIES.reduce((s, e, i) => s + weights[i] * e.value[c], 0));
  close(result, expected, 1e-6, 'mixture');
});

test('the words under the lookup: at a very high temperature no key is named the winner', () => {
  const say = (lang, top) => translator(strings[lang], lang)(top.key, { ...top, names: top.tied?.map((i) => ENTRIES[i].name), name: ENTRIES[top.entry]?.name });
  const hot = largestShare(Array.from(softLookup(attn, [0.3, 0.2], 1000).weights));
  assert.deepEqual(hot, { key: 'noneStandsOut', share: '20%' });
  assert.equal(say('en', hot), 'no key stands out: 20% each');
  assert.equal(say('zh', hot), '没有哪个键突出：各占 20%');
  const cold = largestShare(Array.from(softLookup(attn, ENTRIES[0].at, 0.05).weights));
  assert.equal(cold.key, 'largestWeight');
  assert.match(say('en', cold), /^largest weight: cherry, \d+%$/);
  const tie = largestShare([0.4, 0.4, 0.1, 0.05, 0.05]);
  assert.equal(say('en', tie), 'cherry and lemon share the largest weight, 40% each');
  assert.equal(say('zh', tie), 'cherry和lemon并列最大权重，各占 40%');
});

// A page's own dictionary (issue 14, part 3).
const MINE = { keys: [[-0.5, 0.5], [0.5, 0.5], [0, -0.5]], values: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], labels: ['rouge', 'vert', 'bleu'] };

test('parseExample: a page\'s keys, values and labels become the dictionary the kernels look up', () => {
  const entries = parseExample(structuredClone(MINE));
  assert.deepEqual(entries.map((e) => e.name), ['rouge', 'vert', 'bleu']);
  const { result, best, weights } = softLookup(attn, [0.45, 0.5], 1e-3, entries);
  assert.equal(best, 1);
  close(result, [0, 1, 0], 1e-6, 'cold lookup near vert');
  assert.equal(weights.length, 3);
  assert.deepEqual(hardDictionary(entries).get('0.00,-0.50'), [0, 0, 1]);
  assert.deepEqual(parseExample({ ...MINE, labels: ['  a ', 'b', '<img src=x onerror=alert(1)>'.slice(0, 12)] }).map((e) => e.name), ['a', 'b', '<img src=x o']);
});

test('parseExample: each kind of bad example is refused with a message of the table', () => {
  const refused = refusedBy(parseExample, strings);
  refused(null, 'exampleNotObject');
  refused([1, 2], 'exampleNotObject');
  refused({ ...MINE, keys: 'a' }, 'exampleList', { field: 'keys', min: 2, max: 8, got: 0 });
  refused({ ...MINE, keys: [[0, 0]] }, 'exampleList', { field: 'keys', min: 2, max: 8, got: 1 });
  refused({ ...MINE, keys: Array.from({ length: 9 }, (_, i) => [i / 10, 0]) }, 'exampleList', { field: 'keys', min: 2, max: 8, got: 9 });
  refused({ ...MINE, values: MINE.values.slice(1) }, 'exampleCount', { field: 'values', want: 3, like: 'keys', got: 2 });
  refused({ ...MINE, labels: undefined }, 'exampleCount', { field: 'labels', want: 3, like: 'keys', got: 0 });
  refused({ ...MINE, keys: [[0, 0], [1, 1, 1], [0, 1]] }, 'exampleNumbers', { where: 'keys[1]', want: 2, lo: -1, hi: 1 });
  refused({ ...MINE, keys: [[0, 0], [1.5, 0], [0, 1]] }, 'exampleNumbers', { where: 'keys[1]', want: 2, lo: -1, hi: 1 });
  refused({ ...MINE, keys: [[0, 0], ['0', 0], [0, 1]] }, 'exampleNumbers');
  refused({ ...MINE, values: [[1, 0, 0], [0, 1, 0], [0, 0, 2]] }, 'exampleNumbers', { where: 'values[2]', want: 3, lo: 0, hi: 1 });
  refused({ ...MINE, values: [[1, 0, 0], [0, 1, 0], [0, null, 1]] }, 'exampleNumbers');
  refused({ ...MINE, labels: ['a', '', 'c'] }, 'exampleLabel', { where: 'labels[1]', max: 12, half: 6 });
  refused({ ...MINE, labels: ['a', 'b', 'x'.repeat(13)] }, 'exampleLabel', { where: 'labels[2]', max: 12, half: 6 });
  refused({ ...MINE, labels: ['a', 7, 'c'] }, 'exampleLabel');
  refused({ ...MINE, labels: ['a', 'b', 'a'] }, 'exampleRepeat', { where: 'labels[2]' });
  refused({ ...MINE, keys: [[0, 0], [0.001, 0], [0, 1]] }, 'exampleRepeat', { where: 'keys[1]' });
  assert.equal(translator(strings.en, 'en')('exampleNumbers', { where: 'keys[1]', want: 2, lo: -1, hi: 1 }), 'keys[1] must be 2 numbers from -1 to 1');
});
