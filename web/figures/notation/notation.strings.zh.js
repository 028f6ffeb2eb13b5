// notation.strings.zh.js: notation.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
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
};
