// susan-mary.strings.zh.js: susan-mary.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '谁把玫瑰送给了谁？没有位置信息，自注意力分辨不出来',
  swap: '交换 Susan 和 Mary',
  positions: '加上位置编码',
  weights: '权重',
  person: '人', name1: '名字 1', name2: '名字 2', verb: '动词', thing: '事物', link: '连接', context1: '语境 1', context2: '语境 2',
  sentence: '句子：{sentence}。',
  inSentence: '在\u201c{sentence}\u201d中',
  verdict: '两个句子中的 y_gave：**{same}**（最大差值 {difference}）。{why}',
  withPositions: '有了位置信息，站在\u201cgave\u201d前面的是谁就有影响了。',
  moved: '其余每个输出都随着自己的词一起移动了（交换后最大的不一致为 {difference}）。',
  note: '一个投影固定的注意力头，$w_{ij}=\\mathrm{softmax}_j\\!\\left(\\boldsymbol{q}_i^T\\boldsymbol{k}_j/\\sqrt{8}\\right)$，'
    + '$\\boldsymbol{y}_i=\\sum_j w_{ij}\\boldsymbol{v}_j$：求和不在乎各项的先后顺序，所以交换 Susan 和 Mary 的位置，对\u201cgave\u201d毫无影响，'
    + '只是让两个名字各自的输出跟着名字一起移动。无论词向量和投影是什么，只要没有任何东西依赖位置，这一点都成立：'
    + '比如加上因果掩码（causal mask）后，\u201cgave\u201d就只能看到它前面的那个名字。位置编码给每个位置加上一种不同的波形'
    + '（几种频率的正弦和余弦），于是同一个词换了位置，就成了一个新的向量。',
  scale: '颜色：权重在 1 处最饱和；Y 和两个 y_gave 共用一个色标，在 \u00b1{max} 处最饱和。',
  summaryWith: '{sentence}，加了位置编码：y_gave 在两个句子中{same}。',
  summaryWithout: '{sentence}，没有位置编码：y_gave 在两个句子中{same}。',
};
