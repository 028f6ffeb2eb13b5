// as-dense.strings.zh.js: as-dense.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '全连接层其实是伪装起来的多头注意力',
  head: '头 {n}',
  tag: '标记{n}',
  newWeights: '换一组全连接权重',
  denseLayer: '全连接层',
  asAttention: '同一层写成 {heads} 个头的注意力',
  check: 'Y 的每一行开头都是 x W + b，与直接计算的全连接层**{same}**：最大差值 {difference}',
  note: '词元（token）$i$ 携带它的输入和一个标记，两者都放在头 $i$ 的两列里（彩色横条所示）。$W^Q=0$，再用一个偏置让每个头都去查找自己的标记；'
    + '$W^K$ 把每个标记放进它自己的头，于是对每个查询，头 $i$ 给词元 $i$ 的权重恰好为 1，给其他词元的为 0：这是固定的模式，而不是由输入算出来的。'
    + '由于 $W^V=I$，拼接起来的各头输出 $Z$ 就是输入本身，所以全部可学习的部分都在 $W^O$ 里：它的值所在的行就是全连接层的权重'
    + '（标记所在的行为 0，且 $b^O=b$）。如果反过来把注意力固定为单位矩阵，让每个词元只关注自己，得到的会是另一种层：'
    + '对每个词元分别施加同一个小映射，词元之间没有任何混合。',
  scale: '颜色：各头的注意力权重在 1 处最饱和；其余矩阵共用一个色标，在 \u00b1{max} 处最饱和。',
  summary: '全连接层的输出为 ({output})；注意力版本在每一行都给出相同的结果（{same}，最大差值 {difference}）。',
};
