// causal-mask.strings.zh.js: causal-mask.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).

export default {
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
  emptyRows: ({ rows }, { list }) => `第 ${list(rows.map(String))} 行看不到任何键：那里的权重和输出全为零（PyTorch 会给出 NaN）。`,
  seesNoKey: '看不到任何键',
  attendsMost: '最关注 {token}（{share}）',
  attendsMostTie: ({ tokens: toks, share }, { list }) => `最关注 ${list(toks)}（各 ${share}）`,
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
};
