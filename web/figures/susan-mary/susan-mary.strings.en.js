// susan-mary.strings.en.js: the words of <attention-susan-mary> (format:
// i18n.js). The sentence ("Susan gave roses to Mary") and its words are the
// example, not the interface: they stay English in every language.
// In English; susan-mary.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'Who gave roses to whom? Self-attention cannot tell without positions',
  swap: 'Swap Susan and Mary',
  positions: 'add positional encoding',
  weights: 'weights',
  person: 'person', name1: 'name 1', name2: 'name 2', verb: 'verb', thing: 'thing', link: 'link', context1: 'ctx 1', context2: 'ctx 2',
  sentence: 'Sentence: {sentence}.',
  inSentence: 'in \u201c{sentence}\u201d',
  verdict: 'y_gave in the two sentences: **{same}** (largest difference {difference}). {why}',
  withPositions: 'With positions, who stands before \u201cgave\u201d matters.',
  moved: 'Every other output moved with its word (largest mismatch after the swap {difference}).',
  note: 'One attention head with fixed projections, $w_{ij}=\\mathrm{softmax}_j\\!\\left(\\boldsymbol{q}_i^T\\boldsymbol{k}_j/\\sqrt{8}\\right)$ and '
    + '$\\boldsymbol{y}_i=\\sum_j w_{ij}\\boldsymbol{v}_j$: a sum does not care in which order its terms come, so moving Susan and Mary changes nothing '
    + 'for \u201cgave\u201d and simply moves the two names\u2019 own outputs with them. That holds for any word vectors and any projections, as long as '
    + 'nothing depends on position: under a causal mask, for one, \u201cgave\u201d would see only the name before it. The encoding adds a different '
    + 'wave pattern to each position (sines and cosines of several frequencies), so the same word at a new place is a new vector.',
  scale: 'Colours: the weights are full at 1; Y and both y_gave share one scale, full at \u00b1{max}.',
  summaryWith: '{sentence}, with positional encoding: y_gave is {same} in the two sentences.',
  summaryWithout: '{sentence}, without positional encoding: y_gave is {same} in the two sentences.',
};
