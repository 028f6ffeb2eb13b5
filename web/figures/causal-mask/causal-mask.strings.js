// causal-mask.strings.js: the words of <attention-causal-mask> (format:
// i18n.js). The tokens (causal-mask.model.js TOKENS, or the page's example)
// are the example's content, not the interface: they stay as written.
import { list } from '../../kit/format.js';

const tokens = (n) => `${n} token${n === 1 ? '' : 's'}`;

export default {
  en: {
    title: 'Masks: which keys may each query see?',
    mask: 'Mask',
    none: 'none',
    causal: 'causal',
    padding: 'padding',
    'causal+padding': 'causal + padding',
    window: 'window of {n}',
    custom: 'painted',
    generated: 'Generated',
    stepLabel: ({ n, token }) => `${tokens(n)} (last: ${token})`,
    maskName: 'mask',
    weights: 'weights',
    rowSums: 'Row sums: {sums}. ',
    noKeyLeft: '0 (no key left)',
    emptyRows: ({ rows }) => `${rows.length > 1 ? `Rows ${list(rows.map(String))} see` : `Row ${rows[0]} sees`} no key: weights and output are all zero there (PyTorch would give NaN).`,
    seesNoKey: 'sees no key',
    attendsMost: 'attends most to {token} ({share})',
    attendsMostTie: ({ tokens: toks, share }) => `attends most to ${list(toks)} (${share} each)`,
    summary: ({ preset, n, token, looks }) => `Mask ${preset}, ${tokens(n)}. The newest token, ${token}, ${looks}.`,
    note: 'A blocked cell (blue) adds $-\\infty$ to that score, so its weight after the softmax is exactly 0 and the row\u2019s other weights share the whole 1. '
      + 'A decoder uses the causal mask: token $i$ may look only at tokens 1 to $i$, so the rows already computed never change as new tokens arrive (press \u25B6). '
      + 'Padding hides filler keys (here every <pad> token); a sliding window keeps only recent ones. '
      + 'Each token\u2019s vector is a fixed random embedding of its text plus the encoding of its position. '
      + 'Click any square of the mask, or focus it and press Enter, to paint your own. '
      + 'Colours: the mask and the weights are full at 1, Y at its largest magnitude.',
    exampleList: 'it must be a list of {min} to {max} tokens',
    exampleCount: 'it must hold {min} to {max} tokens, it has {got}',
    exampleToken: 'item [{index}] must be a non-empty string',
    exampleLong: 'item [{index}] is longer than {max} characters',
  },
  zh: {
    title: '掩码：每个查询能看到哪些键？',
    mask: '掩码',
    none: '无',
    causal: '因果',
    padding: '填充',
    'causal+padding': '因果 + 填充',
    window: '宽度为 {n} 的窗口',
    custom: '手绘',
    generated: '已生成',
    stepLabel: ({ n, token }) => `${n} 个 token（最新：${token}）`,
    maskName: '掩码',
    weights: '权重',
    rowSums: '各行之和：{sums}。',
    noKeyLeft: '0（没有可看的键）',
    emptyRows: ({ rows }) => `第 ${list(rows.map(String), 'zh')} 行看不到任何键：那里的权重和输出全为零（PyTorch 会给出 NaN）。`,
    seesNoKey: '看不到任何键',
    attendsMost: '最关注 {token}（{share}）',
    attendsMostTie: ({ tokens: toks, share }) => `最关注 ${list(toks, 'zh')}（各 ${share}）`,
    summary: ({ preset, n, token, looks }) => `掩码：${preset}，共 ${n} 个 token。最新的 token ${token}${looks}。`,
    note: '被屏蔽的格子（蓝色）会给对应的分数加上 $-\\infty$，所以它在 softmax 之后的权重恰好是 0，这一行其余的权重分掉全部的 1。'
      + '解码器使用因果掩码：第 $i$ 个 token 只能看第 1 到第 $i$ 个 token，所以新 token 到来时，已经算好的行不会改变（按 \u25B6 试试）。'
      + '填充掩码遮住用来凑长度的键（这里是每个 <pad> token）；滑动窗口只保留最近的几个。'
      + '每个 token 的向量是由其文本决定的一个固定随机嵌入，加上它所在位置的位置编码。'
      + '点击掩码的任意方格，或聚焦后按 Enter，即可自己绘制掩码。'
      + '颜色：掩码和权重在 1 处最饱和，Y 在其最大绝对值处最饱和。',
    exampleList: '它必须是一个包含 {min} 到 {max} 个 token 的列表',
    exampleCount: '它必须包含 {min} 到 {max} 个 token，现在有 {got} 个',
    exampleToken: '第 [{index}] 项必须是非空字符串',
    exampleLong: '第 [{index}] 项超过了 {max} 个字符',
  },
};
