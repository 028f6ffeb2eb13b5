// induction.strings.zh.js: induction.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '看一个微型 transformer 在你的浏览器里学会复制',
  layers: '层数',
  layerCount: ({ n }) => `${n} 层`,
  status: '第 {step}/{steps} 步 \u00b7 已训练 {time}{rate} \u00b7 {state}',
  stopped: '这个图表已停止：{error}。',
  failed: '训练失败：{message}',
  milestone: '第 2 层的一个头的前缀匹配分数在第 {step} 步首次测得高于 0.5（分数每 {every} 步测量一次），此时已训练 {time}。',
  legendFirst: '第一遍上的损失（无法预测）',
  legendRepeats: '重复部分上的损失（可以照抄）',
  stepAxis: '训练步数',
  lossAxis: '损失（nats）',
  uniform: '均匀猜测：ln {vocab} = {value}',
  plotLabel: '留出数据在第一遍和重复部分上的损失随训练步数的变化',
  sampleNote: '一条留出的序列（每一遍用底色区分），以及每个头在它上面关注什么：图中第 i 行是第 i 个 token 处的查询，第 j 列是第 j 个 token 处的键；颜色越深，权重越大。',
  sample: '样本：一段长 {period} 的片段，不断重复：',
  layerGroup: '第 {l} 层',
  layer: '第 {l} 层',
  head: '第 {l} 层，第 {h} 个头',
  headMap: '第 {l} 层第 {h} 个头在样本上的注意力',
  readout: '{head}：查询 {i}（{qt}）\u2192 键 {j}（{kt}）：权重 {w}',
  previousToken: '前一个 token',
  prefixMatching: '前缀匹配',
  switchOff: '关掉 {head}',
  ablationLater: '训练停下后，可以在这里关掉某些头，看看每个头对损失起什么作用。',
  ablationNone: '留出数据在重复部分上的损失：现在 {now}，训练前 {before}。关掉一些头，看看是哪些头在负责复制。',
  headList: ({ names }) => names.join('、'),
  ablationOff: '关掉 {names} 后：重复部分上的损失为 {loss}（训练后 {trained}，训练前 {before}），也就是说训练减掉的损失有 {back}% 又回来了；第一遍上的损失为 {first}。',
  summary: '{layers}，第 {step}/{steps} 步{state}。{losses}{milestone}{scores}',
  summaryTraining: '，训练中',
  summaryDone: '，已完成',
  summaryRestarted: '，重新开始：这个图表曾被移出页面，训练因此中止',
  summaryLosses: '留出数据的损失：第一遍 {first}，重复部分 {repeats}。',
  scores: ({ items }) => `${items.join('；')}。`,
  score: '{head} 前一个 token 分数 {previous}，前缀匹配分数 {prefix}',
  note: '分数是 32 条留出序列上的平均值：**前一个 token** 分数是一个查询放在紧挨着它的前一个 token 上的权重；'
    + '**前缀匹配**分数是一个查询放在“它自己的 token 此前每次出现之后的那个 token”上的权重，只统计 token 在前面出现过的查询。'
    + '“前一个 token 头”和“归纳头”这两个名字来自 Elhage 等人（2021）；前缀匹配是 Olsson 等人（2022）认定归纳头的两条判据中的第一条'
    + '（第二条是“复制”，这里没有打分）。'
    + '模型：{vocab} 个 token，{context} 个位置，宽度 {width}，每层 {heads} 个头，没有 MLP，也没有 LayerNorm，'
    + '用 AdamW（学习率 {lr}）在每批 {batch} 条新生成的序列上训练。',
};
