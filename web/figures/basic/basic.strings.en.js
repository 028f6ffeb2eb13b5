// basic.strings.en.js: the words of <attention-basic> (format: i18n.js). The
// tokens of a page's own example stay as the page wrote them.
// In English; basic.strings.zh.js holds the same keys in Simplified Chinese.

export default {
  titleMine: 'Attention with no parameters: {n} tokens weigh each other',
  token: 'Token',
  sumTitleMine: 'The output of **{name}** is a weighted sum of all {n} inputs:',
  noteMine: 'Each token is three numbers from \u22121 to +1, shown as a colour (red, green, blue; \u22121 none, +1 full). Row $i$ of W holds '
    + '$w_{ij}=\\mathrm{softmax}_j(\\boldsymbol{x}_i^T\\boldsymbol{x}_j)$, with no scaling. Nothing here is learned, so a token\u2019s largest weight '
    + 'is usually on itself; another token beats it only if it reaches further along $\\boldsymbol{x}_i$\u2019s own direction. '
    + 'Change a token\u2019s numbers and watch every row follow. Click a square or focus a matrix and press Enter to pick a token.',
  title: 'Attention with no parameters: four pixels weigh each other',
  pixel: 'Pixel',
  red: 'red', orange: 'orange', blue: 'blue', teal: 'teal',
  R: 'R', G: 'G', B: 'B',
  sumTitle: 'The output of **{name}** is a weighted sum of all four inputs:',
  result: 'y = ({y}); {largest}.',
  largestTie: ({ names, share }, { list }) => `no single largest weight: ${list(names)} share it, ${share} each`,
  largestSelf: 'the largest weight is on {name} itself',
  largestOther: '{winner} gets the largest weight, not {name} itself: {winner} reaches further along {name}\u2019s direction than {name} does',
  summary: ({ name, shares, names, largest }) => `The output of ${name} takes ${names.map((n, i) => `${shares[i]} from ${n}`).join(', ')}: ${largest}.`,
  note: 'Each pixel is its colour, red, green and blue centred on zero (\u22121 none, +1 full). Row $i$ of W holds '
    + '$w_{ij}=\\mathrm{softmax}_j(\\boldsymbol{x}_i^T\\boldsymbol{x}_j)$, with no scaling. Nothing here is learned, so the best match of a pixel '
    + 'is usually itself and the largest weight sits on the diagonal: $\\boldsymbol{x}_i^T\\boldsymbol{x}_i=\\lVert\\boldsymbol{x}_i\\rVert^2$, '
    + 'and another pixel beats that only if it reaches further along $\\boldsymbol{x}_i$\u2019s own direction (try orange at (0.3, 0, 0)). '
    + 'Change a pixel\u2019s colour and watch every row follow. Click a square or focus a matrix and press Enter to pick a pixel. Colours are full at \u00b11.',
};
