// The figures still to be moved onto string tables (web/figures/i18n.js):
// tests/figures/strings.test.js and tests/browser/i18n.test.js skip their
// checks for these. The list only shrinks; one name per line.
export const PENDING = new Set([
  'notation',
  'dot-product',
  'qkv',
  'soft-dictionary',
  'matrix',
  'tempering',
  'susan-mary',
  'as-dense',
  'as-conv',
  'causal-mask',
  'cross',
  'cost',
  'efficient',
  'induction',
  'tiny-gpt',
]);
