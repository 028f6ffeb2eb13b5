// cost.strings.en.js: the words of <attention-cost> (format: i18n.js), over
// the measuring figures' shared words (measuring.strings.en.js).
// SIMD, N, d and wasm are names and symbols, the same in both languages.
// In English; cost.strings.zh.js holds the same keys in Simplified Chinese.
import measuring from '../../kit/workers/measuring.strings.en.js';

export default {
  ...measuring,
  title: 'What attention costs as N grows, measured in your browser',
  largestN: 'Largest N',
  simd: 'SIMD', scalar: 'scalar', fused: 'fused', plain: 'plain',
  series: '{kernel}, {build}',
  onCores: '{build} on {cores} cores',
  measuring: 'Measuring up to N = {n}, d = {d}\u2026',
  measuringLast: 'Measuring\u2026 last: N = {n}, {kernel} {build}',
  again: 'Measuring again up to N = {n}, d = {d}: the last sweep at this d was stopped unfinished\u2026',
  quickLook: 'A quick look up to N = {n} at d = {d} ({took}). Press the button for the full sweep.',
  done: 'Done in {took} (d = {d}).',
  scalarOnly: ' This browser has no wasm SIMD: scalar only.',
  summary: 'Largest measured at d = {d}: fused at N = {fn} took {fms} and {fbytes}; plain at N = {pn} took {pms} and {pbytes}.',
  memoryPlot: 'Memory held during the call',
  plotLabel: '{title} against N, log-log; the table below lists the numbers.',
  wasmLimit: 'wasm limit',
  skipWasm: 'needs more than the 2 GiB of wasm memory',
  skipWeights: 'needs {gib} GiB for the weights alone; wasm has 2 GiB',
  note: 'Both kernels compute $\\mathrm{softmax}(QK^T/\\sqrt{d})\\,V$ for N queries and N keys. '
    + 'The plain one writes all $N^2$ weights to memory, so its memory grows fourfold each time N doubles and stops fitting in wasm\u2019s 2 GiB near N = 23 000. '
    + 'The fused one walks over tiles of keys and keeps, for each query, the largest score so far, the sum of exponentials so far and the weighted sum of values so far; '
    + 'when a tile raises the maximum, the sum and the partial output are scaled down by the exponential of the difference. '
    + 'So beside Q, K, V and the output it needs only a fixed workspace (a few tiles, and one pass of at most 1024 queries): memory grows like N d. '
    + 'Both still do 2 N\u00b2 d multiply-adds (N\u00b2 d for the scores, N\u00b2 d for the weighted sum; 4 N\u00b2 d floating-point operations), so time grows like N\u00b2 for both. '
    + 'Memory is the most wasm memory held at once during the call; times are the fastest of up to five runs (calls shorter than 10 ms are timed in batches), after every kernel has been warmed up. '
    + 'The sweep runs in a background worker (one measuring figure on the page at a time, so that none times another\u2019s work) and drops a variant when its next run would pass the time budget. '
    + 'Each d has its own sweep: a change of d shows that d\u2019s timings, measuring them first if need be. '
    + 'On every core: the same fused call through a pool of workers, one per core your browser reports, each given a block of the queries; '
    + 'the rows come back as the same bits, sooner by up to the number of cores, less what the messages cost (calls too small for that run on one core).',
};
