// tempering.strings.en.js: the words of <attention-tempering> and of its
// gradient panel (tempering-gradient.view.js). Format: i18n.js.
// In English; tempering.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'Tempering: why the scores are divided by \u221ad\u2096',
  tau: 'Extra temperature \u03c4',
  keyRaw: 'q\u00b7k: variance {variance}',
  keyScaled: 'q\u00b7k / \u221a{dk}: variance {variance}',
  histogram: 'Histograms of {count} dot products over \u00b1{range}: unscaled variance {raw}, scaled variance {scaled}',
  softmaxRaw: 'softmax(q\u00b7k), no division',
  softmaxScaled: 'softmax(q\u00b7k / (\u03c4\u221ad\u2096)), \u03c4 = {tau}',
  softmaxLabel: '{title}: weights of one query over {count} keys',
  softmaxStats: 'entropy {entropy} of {max} bits \u00b7 largest weight {top} (mean over {queries} queries)',
  note: '{queries} random queries and {sampleKeys} random keys, {products} dot products; each entry is drawn independently from a standard normal '
    + '(mean 0, variance 1). A dot product $\\boldsymbol{q}^T\\boldsymbol{k}=\\sum_{i=1}^{d_k}q_ik_i$ adds up d\u2096 independent products of mean 0 '
    + 'and variance 1, so its variance is d\u2096 and its spread grows like \u221ad\u2096. Dividing by \u221ad\u2096 (the temperature $T=\\sqrt{d_k}$) '
    + 'brings it back to 1, so the softmax keeps a useful spread (and, in training, a slope that passes gradients on). Both plots share one axis; each is scaled '
    + 'to its own height. \u03c4 multiplies the temperature on top: small \u03c4 sharpens the weights toward one key, large \u03c4 flattens them toward uniform.',
  summary: 'd_k {dk}: dot products have variance {raw}, scaled {scaled}. Without the division the largest weight averages {unscaledTop}, '
    + 'with it {scaledTop}. {gradient}',
  gradientTitle: 'What learning sees: the gradient at the softmax\u2019s input, its slope',
  gradientScaled: 'softmax(q\u00b7k / \u221ad\u2096)',
  gradientAxisY: 'mean norm, log scale',
  gradientAxisX: 'd\u2096 (log scale)',
  gradientNow: 'At d\u2096 = {dk}, the gradient at the softmax\u2019s input has mean norm {unscaled} without the division and {scaled} with it ({first} at d\u2096 = 1).',
  gradientLabel: 'Log-log plot of the mean norm of the gradient at the softmax\u2019s input against d_k from 1 to {max}: without the division it falls from {from} to {to}; '
    + 'with it, it stays between {low} and {high}',
  gradientHow: 'Each of {queries} queries softmaxes over {count} keys; the same random gradient arrives at the weights on both sides, and '
    + 'softmaxBackward carries it back through the softmax. Where the softmax is saturated, little gets through: that is what the plot shows. '
    + 'It is not yet what a query receives, which is this gradient times the keys, divided by \u221ad\u2096 with the division; the keys grow with d\u2096, and more than make up for it here.',
  gradientQueries: 'At d\u2096 = {dk} the queries\u2019 gradient has mean norm {unscaled} without the division and {scaled} with it.',
};
