// matrix.strings.en.js: the words of <attention-matrix> (format: i18n.js). The
// four pixels' names (sky, sun, grass, roof) are the figure's example, not
// its UI: they stay as written in every language, as do the tokens of a
// page's own example.
// In English; matrix.strings.zh.js holds the same keys in Simplified Chinese.

export default {
  title: 'All at once: attention as matrix products',
  stepX: 'X',
  stepQKV: 'Q, K, V',
  stepScores: 'QK\u1d40',
  stepScale: 'scale by 1/\u221ad',
  stepSoftmax: 'softmax per row',
  stepMix: '\u00d7 V',
  pixelsIntro: 'Four pixels, each a row of X with d = 3 features (red, green, blue, centred on 0), and $W^Q=W^K=1.5\\,I,\\;W^V=I$.',
  tokensIntro: '{n} tokens, each a row of X with d = {d} features, and $W^Q=W^K=1.5\\,I,\\;W^V=I$.',
  stepsNote: 'Each step shows what it takes and, outlined, what it makes; every matrix comes from a kernel call (matmul for the products, a row-wise softmax). '
    + 'Each row of P sums to 1, and so do its printed values.',
  scaleNote: 'Colours: X, Q, K, V and Y share one scale, full at \u00b1{features}; the two score matrices another, full at \u00b1{scores}; P is full at 1.',
  pictureTitle: 'The same on a picture: N = 144 pixels, d = 3',
  pictureLabel: 'A 12 by 12 pixel picture: sky, sun, a house, grass',
  heatName: 'attention',
  heatLabel: 'Attention of the chosen pixel over the picture; arrow keys move, Enter chooses a pixel',
  pixelAt: 'Pixel **({x}, {y})**',
  pixelOutput: 'Its output, a weighted mix of all pixels:',
  pictureNote: 'Click a pixel (or focus the heat map and use the arrow keys and Enter). Orange shows how much it attends to each pixel; full orange is the largest weight, {top}.',
  summary: 'Step {step}: {name}. Pixel {pixel}: attends to {same} of {n} pixels with more than half the average weight; top weight {top}.',
};
