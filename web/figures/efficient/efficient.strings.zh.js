// efficient.strings.zh.js: efficient.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
import measuring from '../../kit/workers/measuring.strings.zh.js';

export default {
  ...measuring,
  title: '更省的注意力：带全局 token 的窗口，或随机特征',
  windowW: '窗口 w',
  featuresM: '特征数 m',
  largestN: '最大 N',
  globalTokens: '全局 token',
  globalIgnored: '这里没有这样的 token：{items}（token 的编号是 1 到 {n}）。',
  matFull: '完整', matWindow: '窗口', matPerformer: 'Performer',
  panelFull: '完整注意力', panelWindow: '窗口 + 全局 token', panelPerformer: 'Performer',
  weightsNote: '{n} 个 token 的权重，从 1 开始编号（行是查询，列是键）。点击窗口权重中的某一行，或聚焦后按 Enter，可把那个 token 设为全局 token（再点一次取消）；也可以在上面输入全局 token 的编号。',
  captionFull: 'softmax(QK\u1d40/\u221ad)，精确计算。',
  captionWindow: '保留了完整注意力 {kept} 的权重；全局 token：{global}。在同样的掩码下与完整注意力相同（最大差值 {gap}）。',
  noGlobal: '无',
  captionPerformer: '{m} 个特征（图中是其中一次抽样）。在 {seeds} 次抽样上平均，每行有 {misplaced} 的权重落到了错误的键上。',
  summary: '窗口 {w}：保留了 {kept} 的权重。{m} 个特征的 Performer 放错了 {misplaced}。',
  full: '完整', window: '窗口 {w}', linear: 'Performer，{m} 个特征', cores: '完整，{cores} 个核心',
  guide: '参考线：斜率 1',
  measuringLast: '测量中\u2026 最近一次：N = {n}，{name}',
  slopes: ({ items }) => `从 N = 1024 起，耗时对 N 的双对数斜率：${items.join('，')}。`,
  slope: '{name} {slope}',
  timeLabel: '每次调用的耗时随 N 的变化，双对数坐标。{slopes}',
  errorPlot: 'Performer 放错的权重',
  mAxis: '特征数 m（对数坐标）',
  errorLabel: 'Performer 放错的权重（在 {seeds} 次特征抽样上平均）从 {m0} 个特征时的 {first} 降到 {m1} 个特征时的 {last}；标出的是 {m} 个特征时的 {at}。',
  note: '完整注意力把每个查询和每个键都比一遍：$2N^2d$ 次乘加（分数 $N^2d$ 次，加权求和 $N^2d$ 次），所以 N 翻倍，耗时变成四倍（双对数坐标上斜率为 2）。'
    + '每侧 w 个键的窗口本来只需要 $2N(2w+1)d$，但内核按 {tile} 个查询乘 {tile} 个键的块来计算分数，只跳过那些没有任何一对查询和键落在带状区域内的块。'
    + 'w = {w} 时，每个查询仍然要和大约 {keys} 个键（{blocks} 块）算分数，带外的分数算完再丢掉：N = {n} 时，窗口算的块占完整注意力的 {share}，而不是 (2w+1)/N = {ideal}。耗时仍然随 N 翻倍（斜率 1）。'
    + '全局 token 能看到所有 token，也被所有 token 看到，它同样按整块计费：它所在那一块的 {tile} 个查询要和每个键算分数，每个查询也要和它所在那一块的 {tile} 个键算分数。N = {n} 时，一个全局 token 在窗口的 {tiles} 块之外再加 {extra} 块，多出 {more} 的计算。'
    + 'Performer 把 $e^{q\\cdot k/\\sqrt d}$ 换成 m 个正随机特征的点积 $\\phi(q)\\cdot\\phi(k)$，'
    + '并从右往左计算 $\\phi(Q)\\,(\\phi(K)^T V)$：大约 $4Nmd$ 次乘加（$\\phi(Q)$、$\\phi(K)$、$\\phi(K)^T V$ 和最后的乘积各 $Nmd$ 次），斜率同样是 1。'
    + '但它只是一个估计，误差缩小得比 m 次独立抽样的平均值慢得多：正随机特征是重尾的，少数几个大值主导了每次估计。'
    + '耗时是在你的浏览器里、在后台 worker 中测的，本页的测量图一次只测一个（取最多三次运行中最快的一次；短于 10 ms 的调用成批计时）；'
    + '内存是调用期间占用的 wasm 内存的最大值，输入也算在内。'
    + '所有核心上的完整注意力，是把同一个调用交给一组 worker，浏览器报告几个核心就有几个 worker，每个分到一部分查询：'
    + '结果逐位相同，最多快到核心数那么多倍，斜率仍然是 2。更多核心只换来一个常数倍；窗口或随机特征改变的是斜率。',
};
