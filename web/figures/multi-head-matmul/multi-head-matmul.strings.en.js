// multi-head-matmul.strings.en.js: the words of <attention-multi-head-matmul>
// (format: i18n.js). The tokens "we split the heads" are the example's own
// content (multi-head-matmul.model.js), not UI, and stay as they are.
// In English; multi-head-matmul.strings.zh.js holds the same keys in Simplified Chinese.
const heads = (n) => (n === 1 ? 'head' : 'heads');

export default {
  title: 'Multi-head attention is a few wide matrix products',
  heads: 'Heads h',
  step1: '1. One wide projection per role (the same for $K$ and $V$)',
  step2: '2. Split the columns into h heads; each attends on its own',
  step3: '3. Concatenate the heads\u2019 outputs and project once',
  check: ({ heads: n, d, dh, same, gap }) => `Running ${n} separate ${heads(n)} with their own ${d}\u00d7${dh} matrices, then concatenating, gives Y ${same}: largest difference ${gap}.`,
  shapes: 'Shapes: ',
  colours: '. More heads do not add parameters: the same {d}\u00d7{d} matrices are cut into narrower slices (coloured bars). '
    + 'Colours: X and the weight matrices are full at \u00b11; Q, Z, Y and the heads\u2019 slices of them share one scale, full at \u00b1{act}; attention weights are full at 1.',
  summary: ({ heads: n, dh, same, gap }) => `${n} ${heads(n)} of width ${dh}; stacked and separate computations give Y ${same} (largest difference ${gap}).`,
};
