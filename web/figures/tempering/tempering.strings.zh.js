// tempering.strings.zh.js: tempering.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
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
};
