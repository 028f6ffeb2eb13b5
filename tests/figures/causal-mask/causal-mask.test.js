// attention-causal-mask: masked weights are exactly 0, rows still sum to 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { causalModel, presetCells, parseCells, normalizeCells, parseExample, flip, PRESETS, N, MAX_TOKENS, MAX_TOKEN_LENGTH } from '../../../web/figures/causal-mask/causal-mask.model.js';
import { ExampleError } from '../../../web/kit/example.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';
import { uniform } from '../../../web/kit/random.js';

const strings = await tablesOf('causal-mask');

const attn = await engine();

function checkMaskSemantics(m, label) {
  const t = m.tokens.length;
  for (let i = 0; i < t; i++) {
    for (let j = 0; j < t; j++) {
      const w = m.weights.data[i * t + j];
      if (m.blocked.data[i * t + j] === 1) assert.equal(w, 0, `${label}: blocked w[${i}][${j}] = ${w}`);
      else if (!m.emptyRows.includes(i)) assert.ok(w > 0, `${label}: open w[${i}][${j}] = ${w}`);
    }
    if (m.emptyRows.includes(i)) {
      assert.equal(m.rowSums[i], 0, `${label}: row ${i} has no key left`);
      for (let c = 0; c < m.output.cols; c++) assert.equal(m.output.data[i * m.output.cols + c], 0);
    } else {
      // at most 8 float32 weights, each rounded once: 1e-6 covers it
      assert.ok(Math.abs(m.rowSums[i] - 1) < 1e-6, `${label}: row ${i} sums to ${m.rowSums[i]}`);
    }
  }
}

test('every preset at every step: blocked weights are exactly 0 and rows sum to 1', () => {
  for (const preset of PRESETS.filter((p) => p !== 'custom')) {
    for (let step = 1; step <= N; step++) checkMaskSemantics(causalModel(attn, { cells: presetCells(preset), step }), `${preset} step ${step}`);
  }
});

test('random painted masks, including rows with nothing left', () => {
  const u = uniform(77);
  for (let trial = 0; trial < 40; trial++) {
    let cells = '';
    for (let k = 0; k < N * N; k++) cells += u() < 0.45 ? '1' : '0';
    if (trial % 5 === 0) cells = '1'.repeat(N) + cells.slice(N); // row 0 fully masked
    const m = causalModel(attn, { cells });
    if (trial % 5 === 0) assert.ok(m.emptyRows.includes(0));
    checkMaskSemantics(m, `trial ${trial}`);
  }
});

test('causal: earlier rows do not change as later tokens arrive', () => {
  const full = causalModel(attn, { cells: presetCells('causal') });
  for (let step = 1; step < N; step++) {
    const part = causalModel(attn, { cells: presetCells('causal'), step });
    for (let i = 0; i < step; i++) {
      for (let j = 0; j < step; j++) {
        assert.ok(Math.abs(part.weights.data[i * step + j] - full.weights.data[i * N + j]) < 1e-6);
      }
    }
  }
});

test('the painted causal mask matches the kernels\' own causal flag', () => {
  const m = causalModel(attn, { cells: presetCells('causal') });
  const Q = { rows: N, cols: 8, data: Float32Array.from({ length: N * 8 }, (_, k) => Math.sin(k)) };
  const a = attn.attention(Q, Q, Q, { mask: m.mask }).weights.data;
  const b = attn.attention(Q, Q, Q, { causal: true }).weights.data;
  // the two paths may round the exponentials' sum differently: a few ulps
  a.forEach((w, k) => (b[k] === 0 ? assert.equal(w, 0) : assert.ok(Math.abs(w - b[k]) < 1e-6, `w[${k}]`)));
});

test('cells: parse, flip and presets', () => {
  assert.equal(parseCells('junk'), presetCells('causal'));
  const c = presetCells('none');
  assert.equal(flip(flip(c, 2, 3), 2, 3), c);
  assert.equal(flip(c, 2, 3)[2 * N + 3], '1');
  assert.ok(presetCells('padding').split('').every((b, k) => (b === '1') === (k % N === N - 1)));
});

test("a page's tokens: every preset at every step keeps the mask's meaning, and the same word at the same place has the same vector", () => {
  const tokens = parseExample(['<s>', 'I', 'think', 'therefore', 'I', 'am', '<pad>', '<pad>', '<pad>', '<pad>']);
  const n = tokens.length;
  for (const preset of PRESETS.filter((p) => p !== 'custom')) {
    const cells = presetCells(preset, tokens);
    assert.equal(cells.length, n * n);
    for (let step = 1; step <= n; step++) checkMaskSemantics(causalModel(attn, { tokens, cells, step }), `page ${preset} step ${step}`);
  }
  assert.ok(presetCells('padding', tokens).split('').every((b, k) => (b === '1') === (k % n >= 6)), 'padding blocks the <pad> keys');
  // the prefix of a page's tokens gives the numbers of the same prefix on its own (the encoding of a place does not depend on the length)
  const whole = causalModel(attn, { tokens, step: 3 });
  const prefix = causalModel(attn, { tokens: tokens.slice(0, 3) });
  assert.deepEqual(Array.from(whole.weights.data), Array.from(prefix.weights.data));
  // the words matter: another word at place 2 changes row 2's weights
  const other = causalModel(attn, { tokens: ['<s>', 'I', 'doubt'] });
  assert.notDeepEqual(Array.from(other.weights.data.slice(6)), Array.from(prefix.weights.data.slice(6)));
  // the default figure is the same model over its own tokens
  assert.deepEqual(Array.from(causalModel(attn).weights.data), Array.from(causalModel(attn, { tokens: ['<s>', 'the', 'cat', 'sat', 'on', 'the', 'mat', '<pad>'] }).weights.data));
});

test('an example that will not do says why, with a key of the string table', () => {
  const cases = [
    [{ tokens: ['a', 'b'] }, 'exampleList', { min: 2, max: MAX_TOKENS }],
    ['a b c', 'exampleList', { min: 2, max: MAX_TOKENS }],
    [['a'], 'exampleCount', { min: 2, max: MAX_TOKENS, got: 1 }],
    [Array(MAX_TOKENS + 1).fill('a'), 'exampleCount', { min: 2, max: MAX_TOKENS, got: MAX_TOKENS + 1 }],
    [['a', ''], 'exampleToken', { index: 1 }],
    [['a', 7], 'exampleToken', { index: 1 }],
    [['a', 'b', 'x'.repeat(MAX_TOKEN_LENGTH + 1)], 'exampleLong', { index: 2, max: MAX_TOKEN_LENGTH }],
  ];
  for (const [data, key, args] of cases) {
    assert.throws(() => parseExample(data), (err) => err instanceof ExampleError && err.key === key && assert.deepEqual(err.args, args) === undefined, key);
    for (const lang of ['en', 'zh']) assert.doesNotMatch(translator(strings[lang], lang)(key, args), /\{\w+\}/, `${lang}.${key}`);
  }
  assert.deepEqual(parseExample(['<img src=x>', 'b']), ['<img src=x>', 'b'], 'markup is just a token');
});

test('cells of any size: the attribute keeps a square of 0/1, parsing falls back to causal for a different size', () => {
  assert.equal(normalizeCells(presetCells('causal')), '');
  assert.equal(normalizeCells('0110'), '0110');
  assert.equal(normalizeCells('011'), '');
  assert.equal(normalizeCells('0'.repeat((MAX_TOKENS + 1) ** 2)), '');
  assert.equal(parseCells('0110', 2), '0110');
  assert.equal(parseCells('0110', 3), presetCells('causal', ['a', 'b', 'c']));
  assert.equal(flip('0000', 1, 0, 2), '0010');
});

test('the summary and the stepper speak both languages', () => {
  const en = translator(strings.en, 'en');
  assert.equal(en('summary', { preset: en('window', { n: 3 }), n: 7, token: 'mat', looks: en('attendsMost', { token: 'cat', share: '40%' }) }),
    'Mask window of 3, 7 tokens. The newest token, mat, attends most to cat (40%).');
  assert.equal(en('stepLabel', { n: 1, token: '<s>' }), '1 token (last: <s>)');
  assert.equal(en('emptyRows', { rows: [1, 3] }), 'Rows 1 and 3 see no key: weights and output are all zero there (PyTorch would give NaN).');
  assert.match(translator(strings.zh, 'zh')('summary', { preset: '因果', n: 2, token: 'the', looks: '看不到任何键' }), /^掩码：因果，共 2 个 token。/);
});
