// cross.strings.zh.js: cross.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).

const quoted = (words, list) => list(words.map((w) => `\u201c${w}\u201d`));

export default {
  title: '交叉注意力：译文回头看原文',
  pair: '语言对',
  'en-fr': '英语 \u2192 法语',
  'en-de': '英语 \u2192 德语',
  'en-fr-short': '英语 \u2192 法语（短句）',
  pageExample: '本页提供的句子',
  temperature: '温度 T',
  source: '原文',
  output: '译文',
  weights: '权重',
  looksAt: ' 把 {share} 的注意力放在\u201c{source}\u201d上。',
  looksEqually: ({ sources, share }, { list }) => ` 同等地关注${quoted(sources, list)}，各占 ${share} 的注意力。`,
  summary: '{pair}：{word}{looks}',
  linesLabel: '从每个译文词连到原文词的对齐线，权重越大线越粗；当前突出显示的是 {word}。',
  note: '编码器的词提供键（key）和值（value），解码器的词提供查询（query）：'
    + '$\\mathrm{softmax}(Q_{\\text{dec}}K_{\\text{enc}}^T/T)\\,V_{\\text{enc}}$。'
    + '矩阵的每一行表示一个译文词在原文里看向哪里，所以这个矩阵就是一种对齐；两种语言词序不同时，对齐线会交叉。',
  notePairs: '这里的例子：法语的形容词放在名词后面，德语的动词放在句末。',
  noteToy: '这是一个玩具模型：两种语言的词共用一组人工设定的\u201c词义\u201d特征，再加上词在句中的位置，位置能把重复的词（两个\u201cthe\u201d）区分开。'
    + '所以它的对齐才这么干净；训练出来的模型要自己学习特征，它的权重只能大致对齐两个句子，会分散到相邻的词和多个头上。'
    + '点击一个词或矩阵的一行即可跟踪它。颜色：权重在 1 处最饱和。',
  exampleObject: '它必须是一个包含 "source"、"target" 和 "align" 的对象',
  exampleWords: '"{side}" 必须是一个词的列表',
  exampleCount: '"{side}" 必须包含 1 到 {max} 个词，现在有 {got} 个',
  exampleWord: '{side}[{index}] 必须是非空字符串',
  exampleLong: '{side}[{index}] 超过了 {max} 个字符',
  exampleAlignLength: '"align" 需要为每个译文词给出一个原文下标（共 {want} 个），现在有 {got} 个',
  exampleAlignIndex: 'align[{index}] 必须是 0 到 {max} 之间的整数',
};
