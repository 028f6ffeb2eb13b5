// mat.js: building and reading the {rows, cols, data} matrices the engine
// uses. No arithmetic here: every number a figure shows comes from the kernels.

/** A rows x cols matrix of zeros. */
export const zeros = (rows, cols) => ({ rows, cols, data: new Float32Array(rows * cols) });

/** A matrix from an array of rows. */
export function fromRows(rowsArr) {
  const M = zeros(rowsArr.length, rowsArr[0].length);
  rowsArr.forEach((r, i) => M.data.set(r, i * M.cols));
  return M;
}

/** Row i as a plain array. */
export const row = (M, i) => Array.from(M.data.subarray(i * M.cols, (i + 1) * M.cols));

/** All rows as plain arrays. */
export const toRows = (M) => Array.from({ length: M.rows }, (_, i) => row(M, i));

/** The n x n identity. */
export function identity(n) {
  const M = zeros(n, n);
  for (let i = 0; i < n; i++) M.data[i * n + i] = 1;
  return M;
}

/** Set entries from a list of [i, j, value]. Returns M. */
export function put(M, entries) {
  for (const [i, j, v] of entries) M.data[i * M.cols + j] = v;
  return M;
}

/** The transpose (a layout change for drawing, not arithmetic). */
export function transpose(M) {
  const T = zeros(M.cols, M.rows);
  for (let i = 0; i < M.rows; i++) for (let j = 0; j < M.cols; j++) T.data[j * M.rows + i] = M.data[i * M.cols + j];
  return T;
}

/**
 * Columns [from, to) of M; written into the start of `buffer` (a
 * Float32Array at least that large) when given: a figure that copies
 * columns again and again reuses one array, whose pages are already in
 * memory (filling a fresh 256 KiB array took 1-3 ms on the test machine, as
 * each new page was zeroed and mapped; an array filled before, under 0.1 ms).
 */
export function columns(M, from, to, buffer) {
  const n = M.rows * (to - from);
  const C = buffer ? { rows: M.rows, cols: to - from, data: buffer.subarray(0, n) } : zeros(M.rows, to - from);
  for (let i = 0; i < M.rows; i++) C.data.set(M.data.subarray(i * M.cols + from, i * M.cols + to), i * C.cols);
  return C;
}
