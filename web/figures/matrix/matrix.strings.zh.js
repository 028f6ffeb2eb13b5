// matrix.strings.zh.js: matrix.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).

export default {
  title: '一次算完：用矩阵乘积表示注意力',
  stepX: 'X',
  stepQKV: 'Q, K, V',
  stepScores: 'QK\u1d40',
  stepScale: '乘以 1/\u221ad 缩放',
  stepSoftmax: '逐行 softmax',
  stepMix: '乘以 V',
  pixelsIntro: '四个像素，每个是 X 的一行，有 d = 3 个特征（红、绿、蓝，以零为中心），并取 $W^Q=W^K=1.5\\,I,\\;W^V=I$。',
  tokensIntro: '{n} 个 token，每个是 X 的一行，有 d = {d} 个特征，并取 $W^Q=W^K=1.5\\,I,\\;W^V=I$。',
  stepsNote: '每一步都显示它用到的矩阵，以及加了轮廓的、它算出的矩阵；每个矩阵都来自一次内核调用（乘积用 matmul，再加一次逐行 softmax）。'
    + 'P 的每一行之和为 1，显示出来的数值之和也是 1。',
  scaleNote: '颜色：X、Q、K、V 和 Y 共用一个色标，在 \u00b1{features} 处最饱和；两个得分矩阵共用另一个，在 \u00b1{scores} 处最饱和；P 在 1 处最饱和。',
  pictureTitle: '同样的计算，换成一张图片：N = 144 个像素，d = 3',
  pictureLabel: '一张 12×12 像素的图片：天空、太阳、一座房子、草地',
  heatName: '注意力',
  heatLabel: '所选像素对整张图片的注意力；方向键移动，Enter 选中一个像素',
  pixelAt: '像素 **({x}, {y})**',
  pixelOutput: '它的输出，是所有像素的加权混合：',
  pictureNote: '点击一个像素（或聚焦热力图，用方向键和 Enter 选择）。橙色表示它对每个像素的关注程度；最深的橙色是最大的权重，{top}。',
  summary: '第 {step} 步：{name}。像素 {pixel}：对 {n} 个像素中的 {same} 个给出了超过平均值一半的权重；最大权重 {top}。',
};
