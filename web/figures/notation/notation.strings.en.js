// notation.strings.en.js: the words of <attention-notation> (format: i18n.js).
// In English; notation.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'Numbers as coloured squares',
  scalarA: 'Scalar a',
  scalar: 'scalar',
  vector: 'vector ({n})',
  matrix: 'matrix ({rows}\u00d7{cols})',
  scale: 'scale',
  legend: 'The mapping every figure uses, here with full colour at \u00b11:',
  note: 'Orange squares hold positive numbers, blue ones negative; the stronger the colour, the larger the magnitude, and zero is blank. '
    + 'Strength is relative to a full-scale value that each figure states: here 1, so a square\u2019s strength is its magnitude. '
    + 'One square is a scalar, a column of squares a vector, a grid a matrix. Hover, tap or focus a square (arrow keys move) to read its value. '
    + 'Move the slider through zero and watch every hue flip while the magnitudes stay.',
  allBlank: 'all squares blank',
  orange: 'orange',
  blue: 'blue',
  strength: 'the scalar is {colour} at {percent}% strength',
  summary: 'a = {a}: {scalar}; the vector and matrix hold {min} to {max}.',
};
