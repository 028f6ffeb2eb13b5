// attention-cross: decoder queries over encoder keys; rows sum to 1 and the
// reordered words align.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { crossModel, crossSetup, parseExample, PAIRS, MAX_WORDS } from '../../../web/figures/cross/cross.model.js';
import { ExampleError } from '../../../web/kit/example.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';

const strings = await tablesOf('cross');

const attn = await engine();

test('every decoder word attends most to the source word it translates, reordering included', () => {
  for (const pair of Object.keys(PAIRS)) {
    for (const temperature of [0.05, 0.1, 0.3]) {
      const m = crossModel(attn, { pair, temperature });
      assert.deepEqual(m.argmax, m.align, `${pair} T=${temperature}`);
    }
  }
});

test('the example pairs really reorder: some alignment lines cross', () => {
  for (const [name, p] of Object.entries(PAIRS)) {
    const crosses = p.align.some((a, i) => p.align.some((b, j) => j > i && b < a));
    assert.ok(crosses, name);
  }
});

test('rows sum to 1; shapes are target x source', () => {
  for (const pair of Object.keys(PAIRS)) {
    const m = crossModel(attn, { pair, temperature: 1 });
    assert.equal(m.weights.rows, m.target.length);
    assert.equal(m.weights.cols, m.source.length);
    for (let i = 0; i < m.target.length; i++) {
      const sum = m.focus(i).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `${pair} row ${i}: ${sum}`);
    }
  }
});

const EXAMPLE = { source: ['la', 'casa', 'blanca'], target: ['the', 'white', 'house'], align: [0, 2, 1] };

test("a page's sentences: parsed, aligned by the kernels, and the same numbers as a built-in pair of the same shape", () => {
  const pair = parseExample(EXAMPLE);
  assert.deepEqual(pair, EXAMPLE);
  for (const temperature of [0.05, 0.2]) {
    const m = crossModel(attn, { pair, temperature });
    assert.deepEqual(m.argmax, EXAMPLE.align);
    assert.deepEqual(m.target, EXAMPLE.target);
    const cached = crossModel(attn, { temperature, setup: crossSetup(pair) });
    assert.deepEqual(Array.from(cached.weights.data), Array.from(m.weights.data), 'the cached setup gives the same weights');
  }
  // only the alignment and the lengths matter, not the spelling
  const short = PAIRS['en-fr-short'];
  const renamed = parseExample({ source: ['a', 'b', 'c', 'd'], target: ['w', 'x', 'y', 'z'], align: short.align });
  assert.deepEqual(Array.from(crossModel(attn, { pair: renamed, temperature: 0.3 }).weights.data),
    Array.from(crossModel(attn, { pair: 'en-fr-short', temperature: 0.3 }).weights.data));
});

test('an example that will not do says why, with a key of the string table', () => {
  const long = 'x'.repeat(17);
  const cases = [
    [null, 'exampleObject'], [[1], 'exampleObject'],
    [{ ...EXAMPLE, source: 'la casa' }, 'exampleWords', { side: 'source' }],
    [{ ...EXAMPLE, target: [] }, 'exampleCount', { side: 'target', max: MAX_WORDS, got: 0 }],
    [{ ...EXAMPLE, source: Array(MAX_WORDS + 1).fill('a') }, 'exampleCount', { side: 'source', max: MAX_WORDS, got: MAX_WORDS + 1 }],
    [{ ...EXAMPLE, target: ['the', ' ', 'house'] }, 'exampleWord', { side: 'target', index: 1 }],
    [{ ...EXAMPLE, source: ['la', 3, 'blanca'] }, 'exampleWord', { side: 'source', index: 1 }],
    [{ ...EXAMPLE, source: ['la', long, 'blanca'] }, 'exampleLong', { side: 'source', index: 1, max: 16 }],
    [{ ...EXAMPLE, align: [0, 1] }, 'exampleAlignLength', { want: 3, got: 2 }],
    [{ ...EXAMPLE, align: undefined }, 'exampleAlignLength', { want: 3, got: 0 }],
    [{ ...EXAMPLE, align: [0, 3, 1] }, 'exampleAlignIndex', { index: 1, max: 2 }],
    [{ ...EXAMPLE, align: [0, 1.5, 1] }, 'exampleAlignIndex', { index: 1, max: 2 }],
  ];
  for (const [data, key, args = {}] of cases) {
    assert.throws(() => parseExample(data), (err) => err instanceof ExampleError && err.key === key && assert.deepEqual(err.args, args) === undefined, key);
    for (const lang of ['en', 'zh']) assert.doesNotMatch(translator(strings[lang], lang)(key, args), /\{\w+\}/, `${lang}.${key} fills every placeholder`);
  }
  assert.equal(translator(strings.en, 'en')('exampleAlignIndex', { index: 1, max: 2 }), 'align[1] must be a whole number from 0 to 2');
});
