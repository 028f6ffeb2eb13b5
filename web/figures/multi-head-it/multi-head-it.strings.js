// multi-head-it.strings.js: the words of <attention-multi-head-it> (format:
// i18n.js). The sentence "The animal didn't cross the road because it was too
// tired / wide" and its words (it, animal, road, tired, wide) are the
// example's own content (multi-head-it.model.js), not UI: they stay English
// in both languages, and the tables refer to them as {word}, {referent}, ...
import { count } from '../../kit/format.js';

export default {
  en: {
    title: 'Who is \u201cit\u201d? One head against two',
    adjectiveLabel: 'Adjective',
    heads: 'Heads',
    oneHead: 'one head',
    twoHeads: 'two heads',
    tip: 'Noun head leans',
    tipEven: 'even',
    tipToward: '{word} {amount}',
    headOn: 'head {n} on',
    noun: 'noun', animate: 'animate', adjective: 'adjective', pronoun: 'pronoun', role: 'role', other: 'other',
    nounNote: 'a thing \u201cit\u201d could stand for: animal, road',
    animateNote: '+1 alive, \u22121 not. \u201ctired\u201d leans +1 (tired things are alive), \u201cwide\u201d leans \u22121 (roads are wide, animals rarely): the clue',
    adjectiveNote: 'a describing word',
    pronounNote: '\u201cit\u201d, the only word whose question we follow',
    roleNote: '+1 the subject of the sentence, \u22121 the object',
    otherNote: 'every remaining word',
    numbers: 'The toy\u2019s numbers: word vectors and weights',
    featuresIntro: 'Each word is six numbers, one per feature:',
    layerNote: 'The layer computes $Q=XW^Q,\\;K=XW^K,\\;V=XW^V$ and $Y=\\mathrm{Concat}(Z_1,\\dots,Z_h)\\,W^O$. '
      + 'With two heads, columns 1\u20133 of each matrix belong to head 1 and columns 4\u20136 to head 2. '
      + 'Head 1\u2019s query asks for nouns and passes on only \u201ca noun is here\u201d; head 2\u2019s asks for adjectives and passes on their animacy. '
      + 'One head must ask for both at once, and its value then carries the nouns\u2019 animacy too: that is the blend. '
      + 'The query gains are set so that each head\u2019s strongest score is 4 in both models: neither is sharper than the other. Coloured bars mark each head\u2019s columns. '
      + 'Each matrix is coloured on its own scale, full at its largest magnitude; hover or focus a square to read its value.',
    headNote: 'Each head $h$ computes $Z_h=\\mathrm{softmax}\\!\\left(Q_hK_h^T/\\sqrt{d_h}\\right)V_h$ from its own columns, with $d_h=6/(\\text{number of heads})$.',
    note: 'A toy: six hand-set features, one layer, no training. Real models learn hundreds of features across many heads and layers, '
      + 'and their heads rarely split the work this cleanly, but the limit shown here is the same: one head gives each word one weighting of the others.',
    headTitle: 'Head {n}',
    roleOnly: 'the only head',
    roleNouns: 'looks for nouns',
    roleAdjectives: 'looks for adjectives',
    switchedOff: 'switched off',
    headAria: 'Head {n}: weights from it to every word',
    undecided: 'undecided',
    verdictUndecided: 'Read-out: undecided',
    verdict: 'Read-out: it = {referent}',
    right: '\u2714 right',
    wrong: '\u2718 wrong',
    margin: ({ points, noun, animacy }) => `Margin ${count(points, 'point')}. What \u201cit\u201d gathered from the layer: look for a noun ${noun}, animacy ${animacy}.`,
    readoutNote: 'The read-out is a second attention step from \u201cit\u201d: its query is what the layer gathered '
      + '(how strongly to look for a noun, and which animacy to prefer), and each word offers its noun and animate features as a key. '
      + 'The bars are that step\u2019s weights on the two nouns.',
    perHead: 'in head {n} it attends to {first} and {second}{off}',
    perHeadOff: ' (switched off)',
    summary: ({ heads, adjective, perHead, referent, points }) => `${heads === 1 ? 'One head' : 'Two heads'}, adjective ${adjective}: ${perHead.join('; ')}. `
      + `Read-out: it = ${referent}, margin ${count(points, 'point')}.`,
  },
  zh: {
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
  },
};
