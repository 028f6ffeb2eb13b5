// cross.strings.en.js: the words of <attention-cross> (format: i18n.js). The
// sentences themselves (cross.model.js PAIRS, or the page's example) are the
// example's content, not the interface: they stay as written in every language.
// In English; cross.strings.zh.js holds the same keys in Simplified Chinese.

const quoted = (words, list) => list(words.map((w) => `\u201c${w}\u201d`));

export default {
  title: 'Cross-attention: the translation looks back at the source',
  pair: 'Pair',
  'en-fr': 'English \u2192 French',
  'en-de': 'English \u2192 German',
  'en-fr-short': 'English \u2192 French (short)',
  pageExample: 'This page\u2019s sentences',
  temperature: 'Temperature T',
  source: 'source',
  output: 'output',
  weights: 'weights',
  looksAt: ' looks at \u201c{source}\u201d with {share} of its attention.',
  looksEqually: ({ sources, share }, { list }) => ` looks equally at ${quoted(sources, list)}, ${share} of its attention each.`,
  summary: '{pair}: {word}{looks}',
  linesLabel: 'Alignment lines from each output word to the source words, thicker for larger weights; {word} is highlighted.',
  note: 'The encoder\u2019s words supply keys and values, the decoder\u2019s words the queries: '
    + '$\\mathrm{softmax}(Q_{\\text{dec}}K_{\\text{enc}}^T/T)\\,V_{\\text{enc}}$. '
    + 'Each row of the matrix says where one output word looks in the source, so the matrix is an alignment, and it may cross when the languages order words differently. ',
  notePairs: 'Here: the adjectives after the noun in French, the verb at the end in German. ',
  noteToy: 'A toy: the words share hand-set \u201cmeaning\u201d features across the languages plus their place in the sentence, which tells repeated words (the two \u201cthe\u201ds) apart. '
    + 'That is why its alignment is so clean; a trained model learns its features, and its weights line the sentences up only roughly, spread over neighbouring words and over several heads. '
    + 'Click a word or a row to follow it. Colours: the weights are full at 1.',
  exampleObject: 'it must be an object with "source", "target" and "align"',
  exampleWords: '"{side}" must be a list of words',
  exampleCount: '"{side}" must hold 1 to {max} words, it has {got}',
  exampleWord: '{side}[{index}] must be a non-empty string',
  exampleLong: '{side}[{index}] is longer than {max} characters',
  exampleAlignLength: '"align" needs one source index per target word ({want}), it has {got}',
  exampleAlignIndex: 'align[{index}] must be a whole number from 0 to {max}',
};
