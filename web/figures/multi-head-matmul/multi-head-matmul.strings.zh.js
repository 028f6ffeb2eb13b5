// multi-head-matmul.strings.zh.js: multi-head-matmul.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '多头注意力不过是几次宽矩阵乘法',
  heads: '头数 h',
  step1: '1. 每种角色只做一次宽投影（$K$ 和 $V$ 也一样）',
  step2: '2. 把列切成 h 个头，每个头各自做注意力',
  step3: '3. 把各个头的输出拼接起来，再统一投影一次',
  check: '分别运行 {heads} 个独立的头（各用自己的 {d}\u00d7{dh} 矩阵）再拼接，得到的 Y 与一次算出的{same}：最大差值 {gap}。',
  shapes: '形状：',
  colours: '。头数增加并不会增加参数：同样的 {d}\u00d7{d} 矩阵只是被切成更窄的片（彩色条标出各头的列）。'
    + '颜色：X 和各权重矩阵在 \u00b11 处最饱和；Q、Z、Y 以及它们在各头中的切片共用一个色标，在 \u00b1{act} 处最饱和；注意力权重在 1 处最饱和。',
  summary: '{heads} 个头，每个宽 {dh}；合并计算与分头计算得到的 Y {same}（最大差值 {gap}）。',
};
