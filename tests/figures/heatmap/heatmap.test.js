// attention-heatmap: renders any valid weights, rejects malformed or
// oversized JSON with a message (a key of heatmap.strings.en.js and its
// arguments, never an exception; checked here in its English wording), and its live demo's
// heads can be switched off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { parseHeatmap, demoModel, LIMITS, DEMO_TOKENS, DEMO_HEADS } from '../../../web/figures/heatmap/heatmap.model.js';
import { tablesOf } from '../../kit/tables.js';
import { translator } from '../../../web/kit/i18n.js';

const strings = await tablesOf('heatmap');
const t = translator(strings.en, 'en');
const say = ({ key, args }) => t(key, args);

const attn = await engine();
const XSS = '<img src=x onerror=alert(1)>';
const uniformRows = (nq, nk) => Array.from({ length: nq }, () => new Array(nk).fill(1 / nk));

test('valid weights in every accepted shape', () => {
  const tokens = ['a', XSS, 'c'];
  const head = uniformRows(3, 3);
  for (const [attention, layers, heads] of [
    [[[head, head], [head, head]], 2, 2], // layers x heads x q x k
    [[head, head, head], 1, 3], // heads x q x k
    [head, 1, 1], // q x k
    [[[[head, head]], [[head, head]]], 2, 2], // layers x batch(1) x heads x q x k
  ]) {
    const r = parseHeatmap(JSON.stringify({ tokens, attention }));
    assert.ok(r.ok, r.error && say(r.error));
    assert.equal(r.data.layers.length, layers);
    assert.equal(r.data.layers[0].length, heads);
    assert.deepEqual(r.data.tokens, tokens, 'tokens come back as the same strings');
    assert.deepEqual(r.data.warnings, []);
  }
  const cross = parseHeatmap({ tokens: ['x', 'y'], keyTokens: ['p', 'q', 'r'], attention: [[[0.2, 0.3, 0.5], [1, 0, 0]]] });
  assert.ok(cross.ok);
  assert.deepEqual([cross.data.layers[0][0].rows, cross.data.layers[0][0].cols], [2, 3]);
});

test('malformed input gives a message naming the problem, never an exception', () => {
  const cases = [
    ['{"tokens": [', /not valid JSON/],
    ['[1, 2]', /JSON object/],
    ['null', /JSON object/],
    [JSON.stringify({ attention: [] }), /"tokens" must be an array/],
    [JSON.stringify({ tokens: [], attention: [] }), /"tokens" is empty/],
    [JSON.stringify({ tokens: ['a', 7], attention: [[1, 0], [0, 1]] }), /"tokens"\[1\] is number/],
    [JSON.stringify({ tokens: ['a', 'b'] }), /"attention" must be an array/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[[[[[1]]]]]] }), /6 dimensions/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[1, 0]] }), /must have 2 rows/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[1, 0], [1]] }), /\[1\] must have 2 values/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[1, 0], [0, 'x']] }), /\[1\]\[1\] is "x"/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[1, 0], [0, null]] }), /is null, not a finite number/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[1, 0], [-0.5, 1.5]] }), /between 0 and 1/],
    [JSON.stringify({ tokens: ['a', 'b'], attention: [[[[1, 0], [0, 1]]], [[[1, 0], [0, 1]], [[1, 0], [0, 1]]]] }), /must have 1 heads/],
    [JSON.stringify({ tokens: ['a'], keyTokens: 'b', attention: [[1]] }), /"keyTokens" must be an array/],
  ];
  for (const [text, pattern] of cases) {
    const r = parseHeatmap(text);
    assert.equal(r.ok, false, text);
    assert.match(say(r.error), pattern, text);
  }
});

test('oversized input is refused before parsing, with a message', () => {
  const error = (input) => say(parseHeatmap(input).error);
  assert.match(error(' '.repeat(LIMITS.chars + 1)), /5,000,001 characters; the viewer reads at most 5,000,000/);
  const many = Array.from({ length: LIMITS.tokens + 1 }, (_, i) => `t${i}`);
  assert.match(error({ tokens: many, attention: [[1]] }), /at most 512/);
  const heads = Array.from({ length: 33 }, () => Array.from({ length: 32 }, () => [[1]]));
  assert.match(error({ tokens: ['a'], attention: heads }), /more than the 1024 heads/);
  assert.match(error({ tokens: ['a'.repeat(201)], attention: [[1]] }), /longer than 200/);
});

test('rows that do not sum to 1 are drawn with a warning', () => {
  const r = parseHeatmap({ tokens: ['a', 'b'], attention: [[0.5, 0.2], [0, 0]] });
  assert.ok(r.ok);
  assert.match(say(r.data.warnings[0]), /row 1 sums to 0.700/);
});

test('every problem and every demo head has words in both languages', () => {
  const zh = translator(strings.zh, 'zh');
  const r = parseHeatmap({ tokens: ['a', 'b'], attention: [[1, 0], [0, 2]] });
  assert.match(zh(r.error.key, r.error.args), /attention\[0\]\[0\]\[1\]\[1\] 是 2；注意力权重应在 0 到 1 之间/);
  for (const key of DEMO_HEADS.flat()) assert.ok(t(key) && zh(key), key);
});

test('the live demo: valid weights in every head; its output parses as viewer data', () => {
  const m = demoModel(attn);
  assert.equal(m.layers.length, 2);
  for (const layer of m.layers) {
    assert.equal(layer.length, 4);
    for (const W of layer) {
      for (let i = 0; i < W.rows; i++) assert.ok(Math.abs(W.data.subarray(i * W.cols, (i + 1) * W.cols).reduce((a, b) => a + b, 0) - 1) < 1e-5);
    }
  }
  const asJson = { tokens: m.tokens, attention: m.layers.map((l) => l.map((W) => Array.from({ length: W.rows }, (_, i) => Array.from(W.data.subarray(i * W.cols, (i + 1) * W.cols))))) };
  assert.ok(parseHeatmap(JSON.stringify(asJson)).ok);
});

test('switching a layer-1 head off changes the layer-2 head that reads what it wrote, and only that', () => {
  const on = demoModel(attn);
  const argmax = (W, i) => { const r = Array.from(W.data.subarray(i * W.cols, (i + 1) * W.cols)); return r.indexOf(Math.max(...r)); };
  const sat = DEMO_TOKENS.indexOf('sat');
  const it = DEMO_TOKENS.indexOf('it');
  const cat = DEMO_TOKENS.indexOf('cat');
  assert.equal(argmax(on.layers[1][0], 0), sat, 'layer 2 head 1 finds the word after a noun');
  assert.equal(argmax(on.layers[1][3], it), cat, 'layer 2 head 4: "it" finds the animate noun');
  const off1 = demoModel(attn, { off: [[true, false, false, false], []] });
  const row0 = off1.layers[1][0].data.subarray(0, 10);
  assert.ok(Math.max(...row0) - Math.min(...row0) < 1e-6, 'without L1 head 1, L2 head 1 has nothing to look for: uniform');
  const off4 = demoModel(attn, { off: [[false, false, false, true], []] });
  assert.notEqual(argmax(off4.layers[1][3], it), cat);
  // the switched-off head's own weights and the other heads do not change
  for (const [l, hd] of [[0, 0], [0, 3], [1, 1], [1, 2]]) {
    assert.deepEqual(Array.from(off1.layers[l][hd].data), Array.from(on.layers[l][hd].data));
  }
});
