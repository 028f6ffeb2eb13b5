// efficient.strings.en.js: the words of <attention-efficient> (format: i18n.js),
// over the measuring figures' shared words (measuring.strings.en.js).
// Performer and Longformer are names; N, w, m and d are symbols.
// In English; efficient.strings.zh.js holds the same keys in Simplified Chinese.
import measuring from '../../kit/workers/measuring.strings.en.js';

export default {
  ...measuring,
  title: 'Cheaper attention: a window with global tokens, or random features',
  windowW: 'Window w',
  featuresM: 'Features m',
  largestN: 'Largest N',
  globalTokens: 'Global tokens',
  globalIgnored: 'Not a token here: {items} (the tokens are numbered 1 to {n}).',
  // the three weight matrices (their names for screen readers) and their panels
  matFull: 'full', matWindow: 'window', matPerformer: 'Performer',
  panelFull: 'Full attention', panelWindow: 'Window + global tokens', panelPerformer: 'Performer',
  weightsNote: 'Weights of {n} tokens, numbered from 1 (rows: queries, columns: keys). Click a row of the window\u2019s weights, or focus them and press Enter, to make that token global (click again to undo); or type the global tokens\u2019 numbers above.',
  captionFull: 'softmax(QK\u1d40/\u221ad), computed exactly.',
  captionWindow: 'Keeps {kept} of full attention\u2019s weight; global: {global}. Equal to full attention under the same mask (largest difference {gap}).',
  noGlobal: 'none',
  captionPerformer: '{m} features (one draw shown). Averaged over {seeds} draws, {misplaced} of each row\u2019s weight lands on the wrong keys.',
  summary: 'Window {w}: keeps {kept} of the weight. Performer with {m} features misplaces {misplaced}.',
  // the mechanisms in the sweep's legend, plots and table
  full: 'full', window: 'window {w}', linear: 'Performer, {m} features', cores: 'full, on {cores} cores',
  guide: 'guide: slope 1',
  measuringLast: 'Measuring\u2026 last: N = {n}, {name}',
  slopes: ({ items }) => `Log-log slopes of time against N, from N = 1024 on: ${items.join(', ')}.`,
  slope: '{name} {slope}',
  timeLabel: 'Time per call against N, log-log. {slopes}',
  errorPlot: 'Performer\u2019s misplaced weight',
  mAxis: 'features m (log scale)',
  errorLabel: 'The Performer\u2019s misplaced weight, averaged over {seeds} draws of the features, falls from {first} at {m0} features to {last} at {m1}; marked: {at} at {m}.',
  note: 'Full attention compares every query with every key: $2N^2d$ multiply-adds ($N^2d$ for the scores, $N^2d$ for the weighted sum), so doubling N quadruples the time (slope 2 on log-log axes). '
    + 'A window of w keys on each side needs only $2N(2w+1)d$, but the kernel computes scores in tiles of {tile} queries by {tile} keys and skips only the tiles that hold no query-key pair inside the band. '
    + 'With w = {w}, each query is still scored against about {keys} keys ({blocks} tiles) and the scores outside the band are dropped: at N = {n} the window computes {share} of full attention\u2019s tiles, not (2w+1)/N = {ideal}. Time still doubles with N (slope 1). '
    + 'A global token sees and is seen by all, and it costs whole tiles too: the {tile} queries of its block are scored against every key, and every query against the {tile} keys of its tile. At N = {n} one global token adds {extra} tiles to the window\u2019s {tiles}, {more} more work. '
    + 'The Performer replaces $e^{q\\cdot k/\\sqrt d}$ by a dot product of m positive random features, $\\phi(q)\\cdot\\phi(k)$, '
    + 'and computes $\\phi(Q)\\,(\\phi(K)^T V)$ right to left: about $4Nmd$ multiply-adds ($Nmd$ each for $\\phi(Q)$, $\\phi(K)$, $\\phi(K)^T V$ and the last product), slope 1 as well. '
    + 'It is only an estimate, and its error shrinks far more slowly than an average of m independent draws would: positive random features are heavy-tailed, and a few large ones dominate each estimate. '
    + 'Times are measured in your browser in a background worker, one measuring figure at a time (the fastest of up to three runs; calls shorter than 10 ms are timed in batches); '
    + 'memory is the most wasm memory the call held, inputs included. '
    + 'Full attention on every core is the same call through a pool of workers, one per core your browser reports, each given a block of the queries: '
    + 'the same bits, sooner by at most the number of cores, and still slope 2. More cores buy a constant factor; a window or random features change the slope.',
};
