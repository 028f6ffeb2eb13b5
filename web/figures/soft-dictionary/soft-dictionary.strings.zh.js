// soft-dictionary.strings.zh.js: soft-dictionary.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).

export default {
  title: '一本从不说\u201c没有这个键\u201d的字典',
  temperature: '温度 T',
  queryHandle: '查询的位置，可用方向键移动',
  queryAt: '查询位于 {x}, {y}',
  dragNote: '拖动圆环（或聚焦后用方向键移动）。靠近某个键时，它会吸附到键上。',
  weightsCaption: '每个键的权重',
  softTitle: '软查找（注意力）',
  hardTitle: '硬查找（JavaScript 的 Map）',
  hardNote: 'Map 只回答恰好等于某个键的查询；在其他任何位置，它都无话可说。',
  note: '每个键的得分是它到查询的距离平方取负，所以最近的键得分总是最高（单纯的点积会偏向沿查询方向伸得很远的键）。'
    + '把它写成点积，是为了让同一个注意力内核来计算：$w_j=\\mathrm{softmax}_j\\!\\left(-\\lVert \\boldsymbol{q}-\\boldsymbol{k}_j\\rVert^2/T\\right)$。'
    + '温度低（T 小）时，软查找返回最近那个键的值，也就是最近邻查找；温度高（T 大）时，返回所有值的平均。',
  noneStandsOut: '没有哪个键突出：各占 {share}',
  sharedLargest: ({ names, share }, { list }) => `${list(names)}并列最大权重，各占 ${share}`,
  largestWeight: '最大权重：{name}，{share}',
  mapFinds: 'Map 查找命中了这个键。',
  mapNothing: 'Map 查找什么也没找到。',
  summary: ({ x, y, T, names, shares, largest, map }) =>
    `查询位于 ${x}, ${y}，温度 ${T}：权重 ${names.map((n, i) => `${n} ${shares[i]}`).join('，')}；${largest}。${map}`,
};
