// qkv.strings.js: the words of <attention-qkv> (format: i18n.js). The users'
// and movies' names (Ana, Ben, Cy; Heist, Paris, Prank) are the example, not
// the interface: they stay as they are in every language.
import { list } from '../../kit/format.js';

export default {
  en: {
    title: 'Queries, keys and values: an ideal movie for each user',
    action: 'action', romance: 'romance', comedy: 'comedy',
    users: 'users', movies: 'movies', idealMovie: 'ideal movie', weights: 'weights',
    query: 'query', key: 'key', value: 'value',
    selectedWeight: 'Selected weight',
    editing: 'editing {matrix}[{feature}, {column}] (the {role} projection)',
    reset: 'Reset weights',
    note: 'Row $i$ of the weights compares user $i$\u2019s query with every movie\u2019s key (scaled by $1/\\sqrt{3}$, for three features), and '
      + '$\\boldsymbol{y}_i=\\sum_j w_{ij}\\boldsymbol{v}_j$ mixes the movies\u2019 values in those proportions: that user\u2019s ideal movie. '
      + 'Click or focus a square of a W matrix (Enter picks it), then move the slider.',
    scale: 'Colours: users, movies, Q, K, V and the ideal movies share one scale, full at \u00b1{max}; the weights are full at 1, the W matrices at \u00b1{limit}.',
    favourite: '{user} takes {share} of {movie}',
    favouriteTie: ({ user, movies, share }) => `${user} gives ${list(movies)} the same largest weight, ${share} each`,
    summary: ({ parts }) => `${parts.join('; ')}.`,
  },
  zh: {
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
    favouriteTie: ({ user, movies, share }) => `${user} 给 ${list(movies, 'zh')} 的权重并列最大，各为 ${share}`,
    summary: ({ parts }) => `${parts.join('；')}。`,
  },
};
