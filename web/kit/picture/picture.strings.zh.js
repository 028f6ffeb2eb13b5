// picture.strings.zh.js: the words of the figures' pictures in Simplified
// Chinese (the same keys as picture.strings.en.js; format: i18n.js).
export default {
  // 图片的字体（CSS font-family）：先是排版所用的拉丁字体（text.js），再是中文字体
  font: "'DejaVu Sans', Verdana, 'WenQuanYi Micro Hei', '文泉驿微米黑', 'Noto Sans CJK SC', 'Source Han Sans SC', 'PingFang SC', 'Microsoft YaHei', '微软雅黑', sans-serif",
  mono: "'DejaVu Sans Mono', Menlo, Consolas, 'WenQuanYi Micro Hei Mono', '文泉驿等宽微米黑', monospace",
  setting: '{name}：{value}',
  on: '开',
  off: '关',
  untrained: '训练之前，第 0 步：交互图表在读者按下“开始训练”后，才在读者的浏览器里训练这个模型；所以这张图显示的是开始之前的模型：尚未训练。',
  notMeasured: '时间和内存在图表运行时于读者的浏览器中测量；图片里没有任何测量结果，所以图中只画出将要测量的内容。',
  measures: '将要测量：{items}，N 从 {from} 到 {to}。',
  noTimings: '在读者的浏览器中测量',
};
