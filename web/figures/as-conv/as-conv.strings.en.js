// as-conv.strings.en.js: the words of <attention-as-conv> (format: i18n.js).
// In English; as-conv.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'A convolution is attention with one head per offset',
  temperature: 'Temperature T',
  kernelSize: 'Kernel size',
  signal: 'Signal',
  spike: 'spike', step: 'step', bumps: 'bumps',
  attentionY: 'attention Y',
  direct: 'direct convolution',
  head: 'head {n}',
  headWeights: 'Each head\u2019s attention weights (query position \u00d7 padded key position)',
  note: 'Every token carries its value and a one-hot tag of its position; the sequence is padded with $\\lfloor k/2\\rfloor$ zero tokens at each end '
    + '(one for k = 3, two for k = 5). Head $r$\u2019s query for position $i$ asks for the tag $i+r-\\lfloor k/2\\rfloor$, so each head stands for one '
    + 'offset of the kernel (the line colours). $W^V$ passes the picked value on unchanged and $W^O$ multiplies head $r$\u2019s value by kernel weight $r$. '
    + 'The temperature divides the scores: at large T each head smears its attention over all positions; as T falls each head locks onto the one '
    + 'position at its offset (the centre head onto the token itself), and at about 0.01 and below the weights are exactly 0 and 1 and Y is the '
    + 'convolution to the last bit that float32 keeps.',
  inputPadded: 'input (padded)',
  output: 'output of the attention layer',
  diagram: 'Lines from each output to the inputs its {k} heads attend to, thicker for larger weights.',
  hard: 'every head\u2019s weights are exactly 0 and 1: the hard limit',
  soft: 'the weights are not yet exactly 0 and 1 (lower the temperature for the hard limit)',
  check: 'Largest difference between attention and the convolution: **{difference}**; {limit}',
  scale: 'Colours: the inputs, the outputs and both rows of Y share one scale, full at \u00b1{max}; the heads\u2019 weights are full at 1.',
  summary: 'Kernel size {k}, temperature {temperature}: attention differs from the convolution by {difference}; {limit}.',
};
