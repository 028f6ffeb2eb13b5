// accuracy.mjs: checks each engine's first result against the plain JS
// loops on a sample of query rows (all rows would cost N^2 d in JS).
import { sdpa, mha } from '../engines/plain-js.mjs';
import { sampleRows } from './inputs.mjs';

/** Reference output (and weights, for SDPA) rows for one config (with
 *  cfg.causal, under the causal mask: query i sees keys j <= i). */
export function reference(cfg, x) {
  const rows = sampleRows(cfg.N);
  if (cfg.kind === 'mha') return { rows, cols: x.D, output: mha(x, { rows }), weights: null };
  const r = sdpa(x.Q, x.K, x.V, x.N, x.d, x.d, 1 / Math.sqrt(x.d), { weights: true, rows, causal: !!cfg.causal });
  return { rows, cols: x.d, output: r.output, weights: r.weights };
}

/** Largest |engine - reference| over the sampled rows of the output and,
 *  when the engine returned them, of the weights. */
export function maxAbsError(result, ref, N) {
  let worst = 0;
  const compare = (got, want, cols) => {
    if (got.length !== N * cols) worst = NaN; // wrong shape
    ref.rows.forEach((row, r) => {
      for (let c = 0; c < cols; c++) {
        const e = Math.abs(got[row * cols + c] - want[r * cols + c]);
        if (!(e <= worst)) worst = e; // NaN sticks
      }
    });
  };
  compare(result.output, ref.output, ref.cols);
  if (result.weights && ref.weights) compare(result.weights, ref.weights, N);
  return worst;
}
