// notation.strings.js: the words of <attention-notation> (format: i18n.js).
export default {
  en: {
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
  },
  zh: {
    title: '用彩色方格表示数字',
    scalarA: '标量 a',
    scalar: '标量',
    vector: '向量（{n}）',
    matrix: '矩阵（{rows}\u00d7{cols}）',
    scale: '色标',
    legend: '所有图表共用的颜色映射，这里在 \u00b11 处颜色最饱和：',
    note: '橙色方格表示正数，蓝色方格表示负数；颜色越深，绝对值越大，零则是空白。'
      + '颜色深浅是相对于每个图表标明的满刻度值而言的：这里是 1，所以方格的深浅就是它的绝对值。'
      + '一个方格是标量，一列方格是向量，一个网格是矩阵。把鼠标悬停在方格上、轻触或聚焦它（方向键可移动），即可读出数值。'
      + '把滑块拖过零点，看所有方格的色相一起翻转，而深浅保持不变。',
    allBlank: '所有方格都是空白',
    orange: '橙色',
    blue: '蓝色',
    strength: '标量是{colour}，深浅为 {percent}%',
    summary: 'a = {a}：{scalar}；向量和矩阵中的数值从 {min} 到 {max}。',
  },
};
