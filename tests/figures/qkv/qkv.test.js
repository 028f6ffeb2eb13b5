// Claim of attention-qkv (DESIGN.md): output row j = sum_i w_ji v_i, with w
// from the kernels; checked here in float64 against the kernels' numbers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { qkvModel, defaultWeights, favourites, MATRICES, USERS, MOVIES } from '../../../web/figures/qkv/qkv.model.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';

const strings = await tablesOf('qkv');

const attn = await engine();

function check(m) {
  const { weights: w, V, output: Y } = m;
  for (let j = 0; j < Y.rows; j++) {
    let sum = 0;
    for (let i = 0; i < w.cols; i++) sum += w.data[j * w.cols + i];
    assert.ok(Math.abs(sum - 1) < 1e-6, `weights of user ${j} sum to ${sum}`);
    for (let f = 0; f < Y.cols; f++) {
      let y = 0;
      for (let i = 0; i < V.rows; i++) y += w.data[j * w.cols + i] * V.data[i * V.cols + f];
      // float32 kernel vs float64 loop over 3 terms of size <= 3: within 1e-5
      assert.ok(Math.abs(Y.data[j * Y.cols + f] - y) < 1e-5, `y[${j}][${f}]`);
    }
  }
}

test('each output row is the weighted sum of the value rows (default weights)', () => check(qkvModel(attn)));

test('still true after editing any single weight', () => {
  for (const k of MATRICES) for (let cell = 0; cell < 9; cell += 4) for (const v of [-2, 0.5, 2]) {
    const W = defaultWeights();
    W[k].data[cell] = v;
    check(qkvModel(attn, W));
  }
});

test('with identity weights the queries, keys and values are the raw features', () => {
  const m = qkvModel(attn);
  assert.deepEqual(Array.from(m.Q.data), Array.from(m.Xu.data));
  assert.deepEqual(Array.from(m.V.data), Array.from(m.Xm.data));
});

test('favourites name each user\'s top movie as a string key and its arguments; a printed tie names none', () => {
  const m = qkvModel(attn);
  const found = favourites(m.weights);
  assert.equal(found.length, 3);
  const say = translator(strings.en, 'en');
  for (const f of found) {
    assert.equal(f.key, 'favourite');
    const w = Array.from(m.weights.data.slice(3 * USERS.names.indexOf(f.user), 3 * USERS.names.indexOf(f.user) + 3));
    assert.equal(MOVIES.names[w.indexOf(Math.max(...w))], f.movie);
  }
  assert.match(say('favourite', found[0]), /^Ana takes \d+% of \w+$/);
  const tie = favourites({ rows: 1, cols: 3, data: new Float32Array([0.4, 0.4, 0.2]) });
  assert.deepEqual(tie, [{ key: 'favouriteTie', user: 'Ana', movies: ['Heist', 'Paris'], share: '40%' }]);
  assert.equal(say('favouriteTie', tie[0]), 'Ana gives Heist and Paris the same largest weight, 40% each');
  assert.equal(translator(strings.zh, 'zh')('favouriteTie', tie[0]), 'Ana 给 Heist和Paris 的权重并列最大，各为 40%');
});
