// efficient.strings.js: the words of <attention-efficient> (format: i18n.js).
// Performer and Longformer are names; N, w, m and d are symbols.
export default {
  en: {
    title: 'Cheaper attention: a window with global tokens, or random features',
    windowW: 'Window w',
    featuresM: 'Features m',
    largestN: 'Largest N',
    // the three weight matrices (their names for screen readers) and their panels
    matFull: 'full', matWindow: 'window', matPerformer: 'Performer',
    panelFull: 'Full attention', panelWindow: 'Window + global tokens', panelPerformer: 'Performer',
    weightsNote: 'Weights of {n} tokens (rows: queries, columns: keys). Click a row of the window\u2019s weights, or focus them and press Enter, to make that token global (click again to undo).',
    captionFull: 'softmax(QK\u1d40/\u221ad), computed exactly.',
    captionWindow: 'Keeps {kept} of full attention\u2019s weight; global: {global}. Equal to full attention under the same mask (largest difference {gap}).',
    noGlobal: 'none',
    captionPerformer: '{m} features: {misplaced} of each row\u2019s weight lands on the wrong keys, on average.',
    summary: 'Window {w}: keeps {kept} of the weight. Performer with {m} features misplaces {misplaced}.',
    // the mechanisms in the sweep's legend, plots and table
    full: 'full', window: 'window {w}', linear: 'Performer, {m} features',
    guide: 'guide: slope 1',
    measure: 'Measure up to N = {n}',
    stop: 'Stop',
    stopped: 'Stopped.',
    measuring: 'Measuring up to N = {n}\u2026',
    measuringLast: 'Measuring\u2026 last: N = {n}, {name}',
    quickLook: 'A quick look up to N = {n} ({took}). Press the button for the full sweep.',
    done: 'Done in {took}.',
    failed: 'Measurement failed: {message}',
    slopes: ({ items }) => `Log-log slopes of time against N, from N = 1024 on: ${items.join(', ')}.`,
    slope: '{name} {slope}',
    timePlot: 'Time per call',
    nAxis: 'N (log scale)',
    timeLabel: 'Time per call against N, log-log. {slopes}',
    errorPlot: 'Performer\u2019s misplaced weight',
    mAxis: 'features m (log scale)',
    errorLabel: 'The Performer\u2019s misplaced weight falls from {first} at {m0} features to {last} at {m1}.',
    tableCaption: 'Time and memory per call',
    skipped: 'skipped',
    skipRunTime: 'one run would take about {time}',
    skipBudget: 'the time budget is spent',
    note: 'Full attention compares every query with every key: about $4N^2d$ multiply-adds, so doubling N quadruples the time (slope 2 on log-log axes). '
      + 'A window of w keys on each side needs about $4N(2w+1)d$: the kernel skips every tile of keys outside the band, so time doubles with N (slope 1). '
      + 'A global token still sees and is seen by all, at the cost of one full row and column. '
      + 'The Performer replaces $e^{q\\cdot k/\\sqrt d}$ by a dot product of m positive random features, $\\phi(q)\\cdot\\phi(k)$, '
      + 'and computes $\\phi(Q)\\,(\\phi(K)^T V)$ right to left: about $4Nmd$, slope 1 as well, but only an estimate, whose error shrinks as m grows. '
      + 'Times are measured in your browser in a background worker (the fastest of up to three runs; calls shorter than 10 ms are timed in batches); '
      + 'memory is the most wasm memory the call held, inputs included.',
  },
  zh: {
    title: '更省的注意力：带全局 token 的窗口，或随机特征',
    windowW: '窗口 w',
    featuresM: '特征数 m',
    largestN: '最大 N',
    matFull: '完整', matWindow: '窗口', matPerformer: 'Performer',
    panelFull: '完整注意力', panelWindow: '窗口 + 全局 token', panelPerformer: 'Performer',
    weightsNote: '{n} 个 token 的权重（行是查询，列是键）。点击窗口权重中的某一行，或聚焦后按 Enter，可把那个 token 设为全局 token（再点一次取消）。',
    captionFull: 'softmax(QK\u1d40/\u221ad)，精确计算。',
    captionWindow: '保留了完整注意力 {kept} 的权重；全局 token：{global}。在同样的掩码下与完整注意力相同（最大差值 {gap}）。',
    noGlobal: '无',
    captionPerformer: '{m} 个特征：平均每行有 {misplaced} 的权重落到了错误的键上。',
    summary: '窗口 {w}：保留了 {kept} 的权重。{m} 个特征的 Performer 放错了 {misplaced}。',
    full: '完整', window: '窗口 {w}', linear: 'Performer，{m} 个特征',
    guide: '参考线：斜率 1',
    measure: '测量到 N = {n}',
    stop: '停止',
    stopped: '已停止。',
    measuring: '正在测量，直到 N = {n}\u2026',
    measuringLast: '测量中\u2026 最近一次：N = {n}，{name}',
    quickLook: '快速测到 N = {n}（用时 {took}）。按上面的按钮做完整测量。',
    done: '完成，用时 {took}。',
    failed: '测量失败：{message}',
    slopes: ({ items }) => `从 N = 1024 起，耗时对 N 的双对数斜率：${items.join('，')}。`,
    slope: '{name} {slope}',
    timePlot: '每次调用的耗时',
    nAxis: 'N（对数坐标）',
    timeLabel: '每次调用的耗时随 N 的变化，双对数坐标。{slopes}',
    errorPlot: 'Performer 放错的权重',
    mAxis: '特征数 m（对数坐标）',
    errorLabel: 'Performer 放错的权重从 {m0} 个特征时的 {first} 降到 {m1} 个特征时的 {last}。',
    tableCaption: '每次调用的耗时与内存',
    skipped: '已跳过',
    skipRunTime: '跑一次大约要 {time}',
    skipBudget: '时间预算已用完',
    note: '完整注意力把每个查询和每个键都比一遍：大约 $4N^2d$ 次乘加，所以 N 翻倍，耗时变成四倍（双对数坐标上斜率为 2）。'
      + '每侧 w 个键的窗口大约需要 $4N(2w+1)d$：内核会跳过带状区域之外的每一块键，所以耗时随 N 翻倍（斜率 1）。'
      + '全局 token 仍然能看到所有 token，也被所有 token 看到，代价是一整行加一整列。'
      + 'Performer 把 $e^{q\\cdot k/\\sqrt d}$ 换成 m 个正随机特征的点积 $\\phi(q)\\cdot\\phi(k)$，'
      + '并从右往左计算 $\\phi(Q)\\,(\\phi(K)^T V)$：大约 $4Nmd$，斜率同样是 1，但它只是一个估计，误差随 m 增大而减小。'
      + '耗时是在你的浏览器里、在后台 worker 中测的（取最多三次运行中最快的一次；短于 10 ms 的调用成批计时）；'
      + '内存是调用期间占用的 wasm 内存的最大值，输入也算在内。',
  },
};
