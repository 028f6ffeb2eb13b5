// Claim of attention-notation (DESIGN.md): one colour scale maps magnitude to
// vibrancy and sign to hue everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIGURE_AND_KIT_FILES, readWeb } from '../../kit/sources.js';
import { engine } from '../../kit/engine.js';
import { colorOf, cssColor, mixOklab, rgbColor } from '../../../web/kit/draw/scale.js';
import { notationModel } from '../../../web/figures/notation/notation.model.js';

const attn = await engine();

test('sign picks the hue, magnitude the vibrancy, symmetric around zero', () => {
  const values = [-2, -1, -0.7, -0.3, -0.01, 0, 0.01, 0.3, 0.7, 1, 2];
  for (const v of values) {
    const c = colorOf(v, 1);
    assert.equal(c.hue, v > 0 ? 'positive' : v < 0 ? 'negative' : 'zero');
    assert.equal(c.vibrancy, Math.min(1, Math.abs(v)));
    assert.deepEqual(colorOf(-v, 1).vibrancy, c.vibrancy, 'same magnitude, same vibrancy');
  }
  for (let i = 1; i < values.length; i++) {
    const [a, b] = [Math.abs(values[i - 1]), Math.abs(values[i])];
    if (a < b && values[i] > 0) assert.ok(colorOf(values[i], 1).vibrancy >= colorOf(values[i - 1], 1).vibrancy);
  }
  assert.match(cssColor(0.5), /--attention-positive/);
  assert.match(cssColor(-0.5), /--attention-negative/);
  assert.equal(cssColor(0), 'var(--attention-zero)');
  assert.equal(colorOf(3, 6).vibrancy, 0.5, 'vibrancy is relative to the full scale in view');
});

test('the notation figure shows every value through that scale, and the three entities move together', () => {
  for (const a of [-1, -0.4, 0, 0.5, 1]) {
    const { scalar, vector, matrix } = notationModel(attn, a);
    assert.deepEqual([scalar.rows, scalar.cols, vector.rows, vector.cols, matrix.rows, matrix.cols], [1, 1, 4, 1, 3, 4]);
    // flipping the sign of a flips every hue and keeps every vibrancy
    const flipped = notationModel(attn, -a);
    matrix.data.forEach((v, i) => {
      assert.equal(colorOf(v).vibrancy, colorOf(flipped.matrix.data[i]).vibrancy);
      if (v !== 0) assert.notEqual(colorOf(v).hue, colorOf(flipped.matrix.data[i]).hue);
    });
  }
});

test('everywhere: no figure file mixes colours for numbers except the scale', () => {
  for (const f of FIGURE_AND_KIT_FILES) {
    const src = readWeb(f);
    if (f !== 'kit/draw/scale.js') {
      assert.ok(!src.includes('color-mix('), `${f} builds its own colour mix`);
      assert.ok(!/--attention-(positive|negative)\)?\s*[,;]?.*\d+%/.test(src) || f === 'kit/styles.js', `${f} scales a hue itself`);
    }
  }
});

test('the oklab mix behind label colours: its ends are the two colours, black and white meet at L = 0.5', () => {
  const [orange, grey] = [[196, 90, 0], [241, 241, 238]];
  assert.deepEqual(mixOklab(orange, grey, 1), orange);
  assert.deepEqual(mixOklab(orange, grey, 0), grey);
  assert.deepEqual(mixOklab([0, 0, 0], [255, 255, 255], 0.5), [99, 99, 99], 'oklab L = 0.5 is linear 0.125, sRGB 99');
  const theme = { zero: grey, positive: orange, negative: [31, 98, 180] };
  assert.deepEqual(rgbColor(0, 1, theme), grey);
  assert.deepEqual(rgbColor(-3, 1, theme), theme.negative, 'clipped at full scale');
  assert.deepEqual(rgbColor(0.5, 1, theme), mixOklab(orange, grey, 0.5));
});
