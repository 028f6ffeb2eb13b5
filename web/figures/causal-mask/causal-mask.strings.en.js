// causal-mask.strings.en.js: the words of <attention-causal-mask> (format:
// i18n.js). The tokens (causal-mask.model.js TOKENS, or the page's example)
// are the example's content, not the interface: they stay as written.
// In English; causal-mask.strings.zh.js holds the same keys in Simplified Chinese.

const tokens = (n) => `${n} token${n === 1 ? '' : 's'}`;

export default {
  title: 'Masks: which keys may each query see?',
  mask: 'Mask',
  none: 'none',
  causal: 'causal',
  padding: 'padding',
  'causal+padding': 'causal + padding',
  window: 'window of {n}',
  custom: 'painted',
  generated: 'Generated',
  stepLabel: ({ n, token }) => `${tokens(n)} (last: ${token})`,
  maskName: 'mask',
  weights: 'weights',
  rowSums: 'Row sums: {sums}. ',
  noKeyLeft: '0 (no key left)',
  emptyRows: ({ rows }, { list }) => `${rows.length > 1 ? `Rows ${list(rows.map(String))} see` : `Row ${rows[0]} sees`} no key: weights and output are all zero there (PyTorch would give NaN).`,
  seesNoKey: 'sees no key',
  attendsMost: 'attends most to {token} ({share})',
  attendsMostTie: ({ tokens: toks, share }, { list }) => `attends most to ${list(toks)} (${share} each)`,
  summary: ({ preset, n, token, looks }) => `Mask ${preset}, ${tokens(n)}. The newest token, ${token}, ${looks}.`,
  note: 'A blocked cell (blue) adds $-\\infty$ to that score, so its weight after the softmax is exactly 0 and the row\u2019s other weights share the whole 1. '
    + 'A decoder uses the causal mask: token $i$ may look only at tokens 1 to $i$, so the rows already computed never change as new tokens arrive (press \u25B6). '
    + 'Padding hides filler keys (here every <pad> token); a sliding window keeps only recent ones. '
    + 'Each token\u2019s vector is a fixed random embedding of its text plus the encoding of its position. '
    + 'Click any square of the mask, or focus it and press Enter, to paint your own. '
    + 'Colours: the mask and the weights are full at 1, Y at its largest magnitude.',
  exampleList: 'it must be a list of {min} to {max} tokens',
  exampleCount: 'it must hold {min} to {max} tokens, it has {got}',
  exampleToken: 'item [{index}] must be a non-empty string',
  exampleLong: 'item [{index}] is longer than {max} characters',
};
