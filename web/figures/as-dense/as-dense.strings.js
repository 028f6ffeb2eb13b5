// as-dense.strings.js: the words of <attention-as-dense> (format: i18n.js).
export default {
  en: {
    title: 'A fully connected layer is multi-head attention in disguise',
    head: 'head {n}',
    tag: 'tag{n}',
    newWeights: 'New dense weights',
    denseLayer: 'The dense layer',
    asAttention: 'The same layer as attention with {heads} heads',
    check: 'Every row of Y starts with x W + b, **{same}** to the direct layer: largest difference {difference}',
    note: 'Token $i$ carries its input and a tag, both in head $i$\u2019s two columns (the coloured bars). $W^Q=0$ with a bias that asks every head '
      + 'for its tag, and $W^K$ puts each tag in its own head, so head $i$ gives token $i$ weight exactly 1 from every query and the others 0: '
      + 'a fixed pattern, not one computed from the inputs. With $W^V=I$ the concatenated heads $Z$ are just the inputs, so all the learning sits '
      + 'in $W^O$, whose value rows are the dense weights (its tag rows are 0, and $b^O=b$). Fixing the attention to the identity instead, each '
      + 'token attending only to itself, would give a different layer: the same small map applied to every token separately, with nothing mixed between them.',
    scale: 'Colours: the heads\u2019 attention weights are full at 1; every other matrix shares one scale, full at \u00b1{max}.',
    summary: 'Dense output ({output}); the attention version gives the same in every row ({same}, largest difference {difference}).',
  },
  zh: {
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
  },
};
