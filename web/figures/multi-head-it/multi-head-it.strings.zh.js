// multi-head-it.strings.zh.js: multi-head-it.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '\u201cit\u201d指的是谁？一个头对两个头',
  adjectiveLabel: '形容词',
  heads: '头数',
  oneHead: '一个头',
  twoHeads: '两个头',
  tip: '名词头的偏向',
  tipEven: '不偏',
  tipToward: '偏向 {word} {amount}',
  headOn: '开启头 {n}',
  noun: '名词', animate: '生命性', adjective: '形容词', pronoun: '代词', role: '句法角色', other: '其他',
  nounNote: '\u201cit\u201d可能指代的事物：animal、road',
  animateNote: '+1 表示有生命，\u22121 表示没有。\u201ctired\u201d偏向 +1（会累的是活物），\u201cwide\u201d偏向 \u22121（宽的通常是路，很少是动物）：这就是线索',
  adjectiveNote: '描述性的词',
  pronounNote: '\u201cit\u201d，我们只追踪它这一个词的提问',
  roleNote: '+1 表示句子的主语，\u22121 表示宾语',
  otherNote: '其余所有词',
  numbers: '这个玩具模型的数字：词向量与权重',
  featuresIntro: '每个词是六个数，每个特征对应一个：',
  layerNote: '这一层计算 $Q=XW^Q,\\;K=XW^K,\\;V=XW^V$，以及 $Y=\\mathrm{Concat}(Z_1,\\dots,Z_h)\\,W^O$。'
    + '有两个头时，每个矩阵的第 1\u20133 列属于头 1，第 4\u20136 列属于头 2。'
    + '头 1 的查询（query）寻找名词，只传出\u201c这里有个名词\u201d；头 2 的查询寻找形容词，传出它的生命性。'
    + '只有一个头时，它必须同时寻找这两者，它的值（value）于是也带上了名词的生命性：两种信息就这样混在了一起。'
    + '查询的增益经过设定，使两种模型里每个头的最高得分都是 4：谁也不比谁更尖锐。彩色条标出每个头的列。'
    + '每个矩阵按自己的色标着色，在其绝对值最大处最饱和；把鼠标悬停在方格上或聚焦它，即可读出数值。',
  headNote: '每个头 $h$ 用自己的那几列计算 $Z_h=\\mathrm{softmax}\\!\\left(Q_hK_h^T/\\sqrt{d_h}\\right)V_h$，其中 $d_h$ 等于 6 除以头的个数。',
  note: '这只是个玩具：六个手工设定的特征，一层，没有训练。真实模型在许多头、许多层里学习成百上千个特征，'
    + '它们的头也很少分工得这么干净，但这里展示的局限是一样的：一个头只能给每个词一种对其他词的加权。',
  headTitle: '头 {n}',
  roleOnly: '唯一的头',
  roleNouns: '寻找名词',
  roleAdjectives: '寻找形容词',
  switchedOff: '已关闭',
  headAria: '头 {n}：从 it 到每个词的权重',
  undecided: '无法判定',
  verdictUndecided: '读出：无法判定',
  verdict: '读出：it = {referent}',
  right: '\u2714 正确',
  wrong: '\u2718 错误',
  margin: '差距 {points} 个百分点。\u201cit\u201d从这一层收集到的：寻找名词 {noun}，生命性 {animacy}。',
  readoutNote: '读出是从\u201cit\u201d出发的第二步注意力：它的查询就是这一层收集到的信息（要多用力地寻找名词，偏好哪种生命性），'
    + '每个词则以自己的名词和生命性特征作为键（key）。条形是这一步落在两个名词上的权重。',
  perHead: '在头 {n} 中，it 主要关注 {first} 和 {second}{off}',
  perHeadOff: '（已关闭）',
  summary: ({ heads, adjective, perHead, referent, points }) => `${heads === 1 ? '一个头' : '两个头'}，形容词 ${adjective}：${perHead.join('；')}。`
    + `读出：it = ${referent}，差距 ${points} 个百分点。`,
};
