// qkv.strings.zh.js: qkv.strings.en.js in Simplified Chinese,
// with the same keys (what stays as written is said there).

export default {
  title: '查询、键和值：为每位用户找出理想的电影',
  action: '动作', romance: '爱情', comedy: '喜剧',
  users: '用户', movies: '电影', idealMovie: '理想电影', weights: '权重',
  query: '查询', key: '键', value: '值',
  selectedWeight: '选中的权重',
  editing: '正在编辑 {matrix}[{feature}, {column}]（{role}投影）',
  reset: '重置权重',
  note: '权重的第 $i$ 行把用户 $i$ 的查询（query）与每部电影的键（key）相比较（再乘以 $1/\\sqrt{3}$，因为有三个特征），'
    + '$\\boldsymbol{y}_i=\\sum_j w_{ij}\\boldsymbol{v}_j$ 再按这些比例混合各部电影的值（value）：得到的就是这位用户的理想电影。'
    + '点击或聚焦任一 W 矩阵中的方格（按 Enter 选中），然后拖动滑块。',
  scale: '颜色：用户、电影、Q、K、V 和理想电影共用一个色标，在 \u00b1{max} 处最饱和；权重在 1 处最饱和，W 矩阵在 \u00b1{limit} 处最饱和。',
  favourite: '{user} 从 {movie} 取 {share}',
  favouriteTie: ({ user, movies, share }, { list }) => `${user} 给 ${list(movies)} 的权重并列最大，各为 ${share}`,
  summary: ({ parts }) => `${parts.join('；')}。`,
};
