// soft-dictionary.strings.en.js: the words of <attention-soft-dictionary>
// (format: i18n.js). The keys' names (cherry, lemon, ...) are the figure's
// example, not its UI: they stay as written in every language, as do the
// labels of a page's own example.
// In English; soft-dictionary.strings.zh.js holds the same keys in Simplified Chinese.

export default {
  title: 'A dictionary that never says \u201cno such key\u201d',
  temperature: 'Temperature T',
  queryHandle: 'Query position; arrow keys move it',
  queryAt: 'query at {x}, {y}',
  dragNote: 'Drag the ring (or focus it and use the arrow keys). Near a key it snaps onto it.',
  weightsCaption: 'Weight of each key',
  softTitle: 'Soft lookup (attention)',
  hardTitle: 'Hard lookup (a JavaScript Map)',
  hardNote: 'A Map answers only a query that is exactly one of its keys; anywhere else it has nothing to say.',
  note: 'Each key\u2019s score is minus its squared distance to the query, so the nearest key always scores best (a plain dot product would favour keys far out in the query\u2019s direction). '
    + 'It is written as a dot product so that the same attention kernel computes it: $w_j=\\mathrm{softmax}_j\\!\\left(-\\lVert \\boldsymbol{q}-\\boldsymbol{k}_j\\rVert^2/T\\right)$. '
    + 'Cold (small T) the soft lookup returns the nearest key\u2019s value, a nearest-neighbour lookup; hot (large T) the average of all values.',
  noneStandsOut: 'no key stands out: {share} each',
  sharedLargest: ({ names, share }, { list }) => `${list(names)} share the largest weight, ${share} each`,
  largestWeight: 'largest weight: {name}, {share}',
  mapFinds: 'The Map lookup finds this exact key.',
  mapNothing: 'The Map lookup finds nothing.',
  summary: ({ x, y, T, names, shares, largest, map }) =>
    `Query at ${x}, ${y}, temperature ${T}: weights ${names.map((n, i) => `${n} ${shares[i]}`).join(', ')}; ${largest}. ${map}`,
};
