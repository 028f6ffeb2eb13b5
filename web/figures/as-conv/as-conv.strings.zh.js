// as-conv.strings.zh.js: as-conv.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '卷积就是每个偏移量各用一个头的注意力',
  temperature: '温度 T',
  kernelSize: '卷积核大小',
  signal: '信号',
  spike: '尖峰', step: '阶跃', bumps: '起伏',
  attentionY: '注意力 Y',
  direct: '直接卷积',
  head: '头 {n}',
  headWeights: '各头的注意力权重（查询位置 \u00d7 填充后的键位置）',
  note: '每个词元（token）都携带它的值和一个表示位置的独热标记；序列两端各填充 $\\lfloor k/2\\rfloor$ 个零词元（k = 3 时一个，k = 5 时两个）。'
    + '头 $r$ 在位置 $i$ 的查询要找的是标记 $i+r-\\lfloor k/2\\rfloor$，所以每个头对应卷积核的一个偏移量（即连线的颜色）。'
    + '$W^V$ 把选中的值原样传下去，$W^O$ 再把头 $r$ 的值乘以卷积核的第 $r$ 个权重。温度用来除分数：T 大时，每个头把注意力摊到所有位置上；'
    + 'T 变小时，每个头锁定在自己偏移量上的那一个位置（中间的头锁定在词元自身）；大约在 0.01 及以下，权重恰好是 0 和 1，'
    + 'Y 与卷积在 float32 能保留的每一位上都相同。',
  inputPadded: '输入（已填充）',
  output: '注意力层的输出',
  diagram: '从每个输出连到它的 {k} 个头所关注的输入，权重越大线越粗。',
  hard: '每个头的权重都恰好是 0 和 1：这就是硬极限',
  soft: '权重还没有恰好变成 0 和 1（调低温度即可达到硬极限）',
  check: '注意力与卷积之间的最大差值：**{difference}**；{limit}',
  scale: '颜色：输入、输出和 Y 的两行共用一个色标，在 \u00b1{max} 处最饱和；各头的权重在 1 处最饱和。',
  summary: '卷积核大小 {k}，温度 {temperature}：注意力与卷积相差 {difference}；{limit}。',
};
