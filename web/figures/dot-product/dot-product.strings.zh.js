// dot-product.strings.zh.js: dot-product.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).
export default {
  title: '这部电影有多适合这位用户？',
  user: '用户 u：口味',
  movie: '电影 m：内容',
  userEnds: '\u22121 非常不喜欢 \u2026 +1 非常喜欢',
  movieEnds: '\u22121 完全没有 \u2026 +1 非常突出',
  action: '动作',
  romance: '爱情',
  comedy: '喜剧',
  score: '得分',
  term: '{feature}：{u} \u00d7 {m} = {p}，{reading}',
  hardlyMatters: '几乎没有影响',
  dislikedAbsent: '不喜欢，也没有：相符',
  likedPresent: '喜欢，也有：相符',
  dislikedPresent: '不喜欢，却有：不相符',
  likedAbsent: '喜欢，却没有：不相符',
  summary: ({ score, features, products }) => `得分 ${score}：${features.map((f, i) => `${f} ${products[i]}`).join('，')}。`,
  note: '得分就是点积 $\\boldsymbol{u}^T\\boldsymbol{m}=\\sum_f u_f m_f$：每个特征一个乘积，再全部加起来。'
    + '符号和大小同样重要：两个负数相乘得到正的一项。'
    + '颜色在 \u00b11 处最饱和，得分的颜色在 \u00b13 处最饱和，这是三个这样的乘积相加所能达到的最大值。',
};
