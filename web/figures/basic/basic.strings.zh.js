// basic.strings.zh.js: basic.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).

export default {
  titleMine: '没有参数的注意力：{n} 个 token 互相加权',
  token: 'Token',
  sumTitleMine: '**{name}** 的输出是全部 {n} 个输入的加权和：',
  noteMine: '每个 token 是三个介于 \u22121 和 +1 之间的数，显示为一种颜色（红、绿、蓝；\u22121 表示没有，+1 表示满）。W 的第 $i$ 行是 '
    + '$w_{ij}=\\mathrm{softmax}_j(\\boldsymbol{x}_i^T\\boldsymbol{x}_j)$，不做缩放。这里没有任何可学习的东西，所以一个 token 最大的权重通常落在它自己身上；'
    + '只有当另一个 token 沿 $\\boldsymbol{x}_i$ 自身的方向伸得更远时，才会胜过它。'
    + '改变一个 token 的数值，看每一行如何随之变化。点击一个方格，或聚焦矩阵后按 Enter，即可选中一个 token。',
  title: '没有参数的注意力：四个像素互相加权',
  pixel: '像素',
  red: '红', orange: '橙', blue: '蓝', teal: '青',
  R: 'R', G: 'G', B: 'B',
  sumTitle: '**{name}** 的输出是全部四个输入的加权和：',
  result: 'y = ({y})；{largest}。',
  largestTie: ({ names, share }, { list }) => `没有唯一的最大权重：${list(names)}并列，各占 ${share}`,
  largestSelf: '最大的权重落在{name}自己身上',
  largestOther: '最大的权重落在{winner}上，而不是{name}自己：{winner}沿{name}自身方向伸得比{name}更远',
  summary: ({ name, shares, names, largest }) => `${name}的输出取自${names.map((n, i) => `${n} ${shares[i]}`).join('，')}：${largest}。`,
  note: '每个像素就是它的颜色：红、绿、蓝三个通道，以零为中心（\u22121 表示没有，+1 表示满）。W 的第 $i$ 行是 '
    + '$w_{ij}=\\mathrm{softmax}_j(\\boldsymbol{x}_i^T\\boldsymbol{x}_j)$，不做缩放。这里没有任何可学习的东西，所以一个像素最匹配的通常是它自己，'
    + '最大的权重落在对角线上：$\\boldsymbol{x}_i^T\\boldsymbol{x}_i=\\lVert\\boldsymbol{x}_i\\rVert^2$；'
    + '只有当另一个像素沿 $\\boldsymbol{x}_i$ 自身的方向伸得更远时，才会胜过它（试试把橙色设为 (0.3, 0, 0)）。'
    + '改变一个像素的颜色，看每一行如何随之变化。点击一个方格，或聚焦矩阵后按 Enter，即可选中一个像素。颜色在 \u00b11 处最饱和。',
};
