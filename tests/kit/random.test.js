// random.js: a matrix's columns made a few at a time are the numbers the
// whole matrix has (tempering makes the columns a d_k needs when it needs them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalMatrix, fillNormalColumns } from '../../web/kit/random.js';

test('fillNormalColumns in any pieces gives normalMatrix, bit for bit', () => {
  for (const [rows, cols, seed, gain, cuts] of [[256, 512, 0x51ab, 1, [64, 65, 300]], [7, 9, 123, 0.3, [1, 8]], [3, 4, 0xffffffff, 2, []], [1, 1, 0, 1, []]]) {
    const whole = normalMatrix(rows, cols, seed, gain);
    const parts = { rows, cols, data: new Float32Array(rows * cols) };
    const ends = [0, ...cuts, cols];
    for (let k = 1; k < ends.length; k++) fillNormalColumns(parts, seed, ends[k - 1], ends[k], gain);
    assert.deepEqual(parts.data, whole.data, `${rows}x${cols} seed ${seed}`);
  }
});
