// Claims of attention-dot-product (DESIGN.md), checked on the figure's model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from '../../kit/engine.js';
import { dotProductModel, reading } from '../../../web/figures/dot-product/dot-product.model.js';
import { translator } from '../../../web/kit/i18n.js';
import { tablesOf } from '../../kit/tables.js';

const strings = await tablesOf('dot-product');
const say = translator(strings.en, 'en');

const attn = await engine();
const grid = [-1, -0.5, -0.1, 0, 0.3, 1];

test('score = sum of the per-feature products', () => {
  for (const a of grid) for (const b of grid) for (const c of grid) {
    const user = [a, b, c];
    const movie = [b, -c, a * 0.5];
    const { products, score } = dotProductModel(attn, user, movie);
    products.forEach((p, f) => assert.ok(Math.abs(p - user[f] * movie[f]) < 1e-6));
    // float32 sums of three terms of size <= 1: error well under 1e-6
    assert.ok(Math.abs(score - products.reduce((x, y) => x + y, 0)) < 1e-6, `${user} . ${movie}`);
  }
});

test('dislike x absent gives a positive term', () => {
  for (const u of [-1, -0.6, -0.2]) for (const m of [-1, -0.5, -0.2]) {
    const { products, score } = dotProductModel(attn, [u, 0, 0], [m, 0, 0]);
    assert.ok(products[0] > 0 && score > 0, `${u} x ${m}`);
    if (u * m >= 0.05) assert.equal(say(reading(u, m)), 'disliked and absent: a match');
  }
});
