// cost.strings.zh.js: cost.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
import measuring from '../../kit/workers/measuring.strings.zh.js';

export default {
  ...measuring,
  title: '随着 N 增大，注意力要付出多少代价：在你的浏览器里实测',
  largestN: '最大 N',
  simd: 'SIMD', scalar: '标量', fused: '融合', plain: '朴素',
  series: '{kernel}，{build}',
  onCores: '{cores} 个核心上的 {build}',
  measuring: '正在测量，直到 N = {n}，d = {d}\u2026',
  measuringLast: '测量中\u2026 最近一次：N = {n}，{kernel} {build}',
  again: '重新测量，直到 N = {n}，d = {d}：这个 d 上一次的测量没有做完就停止了\u2026',
  quickLook: '快速测到 N = {n}，d = {d}（用时 {took}）。按上面的按钮做完整测量。',
  done: '完成，用时 {took}（d = {d}）。',
  scalarOnly: '这个浏览器不支持 wasm SIMD，只测了标量版本。',
  summary: 'd = {d} 时测到的最大规模：融合内核在 N = {fn} 时用时 {fms}，内存 {fbytes}；朴素内核在 N = {pn} 时用时 {pms}，内存 {pbytes}。',
  memoryPlot: '调用期间占用的内存',
  plotLabel: '{title}随 N 的变化，双对数坐标；具体数值见下表。',
  wasmLimit: 'wasm 上限',
  skipWasm: '需要的内存超过了 wasm 的 2 GiB',
  skipWeights: '光是权重就要 {gib} GiB，而 wasm 只有 2 GiB',
  note: '两个内核计算的都是 $\\mathrm{softmax}(QK^T/\\sqrt{d})\\,V$，N 个查询对 N 个键。'
    + '朴素内核把全部 $N^2$ 个权重写进内存，所以 N 每翻一倍，内存就涨到四倍，在 N 约为 23 000 时就装不进 wasm 的 2 GiB 了。'
    + '融合内核逐块遍历键，并为每个查询记住三样东西：目前为止最大的分数、目前为止指数的和、目前为止值的加权和；'
    + '某一块抬高了最大值时，就把和与部分输出按两者之差的指数缩小。'
    + '因此除了 Q、K、V 和输出之外，它只需要一块固定大小的工作区（几个块，外加一次最多 1024 个查询的处理）：内存按 N d 增长。'
    + '两者仍然都要做 2 N\u00b2 d 次乘加（分数 N\u00b2 d 次，加权求和 N\u00b2 d 次，共 4 N\u00b2 d 次浮点运算），所以两者的耗时都按 N\u00b2 增长。'
    + '内存是调用期间同一时刻占用的 wasm 内存的最大值；耗时取最多五次运行中最快的一次（短于 10 ms 的调用成批计时），并且每个内核都先预热过。'
    + '测量在后台 worker 中进行（本页的测量图一次只测一个，以免互相干扰计时），某个变体的下一次运行若会超出时间预算，就不再测它。'
    + '每个 d 各有一次测量：换了 d，就显示那个 d 的耗时，需要的话先测一遍。'
    + '所有核心上：同一个融合调用交给一组 worker，浏览器报告几个核心就有几个 worker，每个分到一部分查询；'
    + '各行结果逐位相同，最多快到核心数那么多倍，再减去传消息的开销（太小的调用只在一个核心上算）。',
};
