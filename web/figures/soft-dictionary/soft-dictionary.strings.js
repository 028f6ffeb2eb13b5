// soft-dictionary.strings.js: the words of <attention-soft-dictionary>
// (format: i18n.js). The keys' names (cherry, lemon, ...) are the figure's
// example, not its UI: they stay as written in every language, as do the
// labels of a page's own example.
import { list } from '../../kit/format.js';
import checks from '../../kit/example-data.strings.js';

export default {
  en: {
    ...checks.en,
    title: 'A dictionary that never says \u201cno such key\u201d',
    temperature: 'Temperature T',
    queryHandle: 'Query position; arrow keys move it',
    queryAt: 'query at {x}, {y}',
    dragNote: 'Drag the ring (or focus it and use the arrow keys). Near a key it snaps onto it.',
    weightsCaption: 'Weight of each key',
    softTitle: 'Soft lookup (attention)',
    hardTitle: 'Hard lookup (a JavaScript Map)',
    hardNote: 'A Map answers only a query that is exactly one of its keys; anywhere else it has nothing to say.',
    note: 'Each key\u2019s score is minus its squared distance to the query, so the nearest key always scores best (a plain dot product would favour keys far out in the query\u2019s direction). '
      + 'It is written as a dot product so that the same attention kernel computes it: $w_j=\\mathrm{softmax}_j\\!\\left(-\\lVert \\boldsymbol{q}-\\boldsymbol{k}_j\\rVert^2/T\\right)$. '
      + 'Cold (small T) the soft lookup returns the nearest key\u2019s value, a nearest-neighbour lookup; hot (large T) the average of all values.',
    noneStandsOut: 'no key stands out: {share} each',
    sharedLargest: ({ names, share }) => `${list(names)} share the largest weight, ${share} each`,
    largestWeight: 'largest weight: {name}, {share}',
    mapFinds: 'The Map lookup finds this exact key.',
    mapNothing: 'The Map lookup finds nothing.',
    summary: ({ x, y, T, names, shares, largest, map }) =>
      `Query at ${x}, ${y}, temperature ${T}: weights ${names.map((n, i) => `${n} ${shares[i]}`).join(', ')}; ${largest}. ${map}`,
  },
  zh: {
    ...checks.zh,
    title: '一本从不说\u201c没有这个键\u201d的字典',
    temperature: '温度 T',
    queryHandle: '查询的位置，可用方向键移动',
    queryAt: '查询位于 {x}, {y}',
    dragNote: '拖动圆环（或聚焦后用方向键移动）。靠近某个键时，它会吸附到键上。',
    weightsCaption: '每个键的权重',
    softTitle: '软查找（注意力）',
    hardTitle: '硬查找（JavaScript 的 Map）',
    hardNote: 'Map 只回答恰好等于某个键的查询；在其他任何位置，它都无话可说。',
    note: '每个键的得分是它到查询的距离平方取负，所以最近的键得分总是最高（单纯的点积会偏向沿查询方向伸得很远的键）。'
      + '把它写成点积，是为了让同一个注意力内核来计算：$w_j=\\mathrm{softmax}_j\\!\\left(-\\lVert \\boldsymbol{q}-\\boldsymbol{k}_j\\rVert^2/T\\right)$。'
      + '温度低（T 小）时，软查找返回最近那个键的值，也就是最近邻查找；温度高（T 大）时，返回所有值的平均。',
    noneStandsOut: '没有哪个键突出：各占 {share}',
    sharedLargest: ({ names, share }) => `${list(names, 'zh')}并列最大权重，各占 ${share}`,
    largestWeight: '最大权重：{name}，{share}',
    mapFinds: 'Map 查找命中了这个键。',
    mapNothing: 'Map 查找什么也没找到。',
    summary: ({ x, y, T, names, shares, largest, map }) =>
      `查询位于 ${x}, ${y}，温度 ${T}：权重 ${names.map((n, i) => `${n} ${shares[i]}`).join('，')}；${largest}。${map}`,
  },
};
