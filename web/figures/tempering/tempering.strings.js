// tempering.strings.js: the words of <attention-tempering> and of its
// gradient panel (tempering-gradient.view.js). Format: i18n.js.
export default {
  en: {
    title: 'Tempering: why the scores are divided by \u221ad\u2096',
    tau: 'Extra temperature \u03c4',
    keyRaw: 'q\u00b7k: variance {variance}',
    keyScaled: 'q\u00b7k / \u221a{dk}: variance {variance}',
    histogram: 'Histograms of {count} dot products over \u00b1{range}: unscaled variance {raw}, scaled variance {scaled}',
    softmaxRaw: 'softmax(q\u00b7k), no division',
    softmaxScaled: 'softmax(q\u00b7k / (\u03c4\u221ad\u2096)), \u03c4 = {tau}',
    softmaxLabel: '{title}: weights of one query over {count} keys',
    softmaxStats: 'entropy {entropy} of {max} bits \u00b7 largest weight {top} (mean over {queries} queries)',
    note: '{queries} random queries and {sampleKeys} random keys, {products} dot products; each entry is drawn independently from a standard normal '
      + '(mean 0, variance 1). A dot product $\\boldsymbol{q}^T\\boldsymbol{k}=\\sum_{i=1}^{d_k}q_ik_i$ adds up d\u2096 independent products of mean 0 '
      + 'and variance 1, so its variance is d\u2096 and its spread grows like \u221ad\u2096. Dividing by \u221ad\u2096 (the temperature $T=\\sqrt{d_k}$) '
      + 'brings it back to 1, so the softmax keeps a useful spread (and, in training, a slope that passes gradients on). Both plots share one axis; each is scaled '
      + 'to its own height. \u03c4 multiplies the temperature on top: small \u03c4 sharpens the weights toward one key, large \u03c4 flattens them toward uniform.',
    summary: 'd_k {dk}: dot products have variance {raw}, scaled {scaled}. Without the division the largest weight averages {unscaledTop}, '
      + 'with it {scaledTop}. {gradient}',
    gradientTitle: 'What learning sees: the gradient at the softmax\u2019s input, its slope',
    gradientScaled: 'softmax(q\u00b7k / \u221ad\u2096)',
    gradientAxisY: 'mean norm, log scale',
    gradientAxisX: 'd\u2096 (log scale)',
    gradientNow: 'At d\u2096 = {dk}, the gradient at the softmax\u2019s input has mean norm {unscaled} without the division and {scaled} with it ({first} at d\u2096 = 1).',
    gradientLabel: 'Log-log plot of the mean norm of the gradient at the softmax\u2019s input against d_k from 1 to {max}: without the division it falls from {from} to {to}; '
      + 'with it, it stays between {low} and {high}',
    gradientHow: 'Each of {queries} queries softmaxes over {count} keys; the same random gradient arrives at the weights on both sides, and '
      + 'softmaxBackward carries it back through the softmax. Where the softmax is saturated, little gets through: that is what the plot shows. '
      + 'It is not yet what a query receives, which is this gradient times the keys, divided by \u221ad\u2096 with the division; the keys grow with d\u2096, and more than make up for it here.',
    gradientQueries: 'At d\u2096 = {dk} the queries\u2019 gradient has mean norm {unscaled} without the division and {scaled} with it.',
  },
  zh: {
    title: '温度调节：为什么要把分数除以 \u221ad\u2096',
    tau: '额外温度 \u03c4',
    keyRaw: 'q\u00b7k：方差 {variance}',
    keyScaled: 'q\u00b7k / \u221a{dk}：方差 {variance}',
    histogram: '{count} 个点积在 \u00b1{range} 范围内的直方图：未缩放的方差为 {raw}，缩放后的方差为 {scaled}',
    softmaxRaw: 'softmax(q\u00b7k)，不做除法',
    softmaxScaled: 'softmax(q\u00b7k / (\u03c4\u221ad\u2096))，\u03c4 = {tau}',
    softmaxLabel: '{title}：一个查询在 {count} 个键上的权重',
    softmaxStats: '熵 {entropy} 比特（最大 {max}）\u00b7 最大权重 {top}（{queries} 个查询的平均）',
    note: '{queries} 个随机查询（query）和 {sampleKeys} 个随机键（key），共 {products} 个点积；每个分量都独立地取自标准正态分布（均值 0，方差 1）。'
      + '点积 $\\boldsymbol{q}^T\\boldsymbol{k}=\\sum_{i=1}^{d_k}q_ik_i$ 是 d\u2096 个相互独立、均值为 0、方差为 1 的乘积之和，所以它的方差是 d\u2096，'
      + '分布的宽度按 \u221ad\u2096 增长。除以 \u221ad\u2096（也就是取温度 $T=\\sqrt{d_k}$）把方差拉回到 1，softmax 的输出因而保持有用的分散程度'
      + '（训练时也就保持能把梯度传回去的斜率）。两幅直方图共用一条横轴，各自按自己的最高柱缩放。\u03c4 在此基础上再乘到温度上：'
      + '\u03c4 小，权重向某一个键集中；\u03c4 大，权重趋于均匀。',
    summary: 'd_k {dk}：点积的方差为 {raw}，缩放后为 {scaled}。不做除法时，最大权重平均为 {unscaledTop}；做除法时为 {scaledTop}。{gradient}',
    gradientTitle: '学习看到的是什么：softmax 输入处的梯度，也就是它的斜率',
    gradientScaled: 'softmax(q\u00b7k / \u221ad\u2096)',
    gradientAxisY: '平均范数（对数坐标）',
    gradientAxisX: 'd\u2096（对数坐标）',
    gradientNow: '在 d\u2096 = {dk} 时，softmax 输入处梯度的平均范数不做除法为 {unscaled}，做除法为 {scaled}（d\u2096 = 1 时为 {first}）。',
    gradientLabel: 'softmax 输入处梯度的平均范数随 d_k（1 到 {max}）变化的双对数图：不做除法时从 {from} 降到 {to}；做除法时始终在 {low} 与 {high} 之间',
    gradientHow: '{queries} 个查询各自在 {count} 个键上做 softmax；两边的权重收到的是同一个随机梯度，再由 softmaxBackward 穿过 softmax 传回去。'
      + 'softmax 饱和的地方，能传过去的梯度很少：图中画的就是这个。'
      + '它还不是查询收到的梯度：查询收到的是这个梯度乘以键（做除法时再除以 \u221ad\u2096）；键随 d\u2096 变长，在这里足以抵消还有余。',
    gradientQueries: '在 d\u2096 = {dk} 时，查询收到的梯度的平均范数不做除法为 {unscaled}，做除法为 {scaled}。',
  },
};
