// notation.model.js: a scalar, a vector and a matrix for the notation figure.
// The reader sets the scalar a; the vector is a times a fixed vector and the
// matrix the outer product of a fixed column with that vector, both computed
// by the kernels' matmul, so all three change colour together.
import { fromRows } from '../../kit/mat.js';

export const BASE_VECTOR = [1, -0.6, 0.3, -0.15];
export const COLUMN = [1, -0.5, 0.25];

/** {scalar 1x1, vector 4x1 (as a column), matrix 3x4} for scalar a. */
export function notationModel(attn, a) {
  const scalar = fromRows([[a]]);
  const row = attn.matmul(scalar, [BASE_VECTOR]); // 1x4: a x
  const vector = { rows: row.cols, cols: 1, data: row.data }; // the same numbers as a column
  const matrix = attn.matmul(COLUMN.map((c) => [c]), row); // 3x1 times 1x4
  return { scalar, vector, matrix };
}
