// qkv.strings.en.js: the words of <attention-qkv> (format: i18n.js). The users'
// and movies' names (Ana, Ben, Cy; Heist, Paris, Prank) are the example, not
// the interface: they stay as they are in every language.
// In English; qkv.strings.zh.js holds the same keys in Simplified Chinese.

export default {
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
  favouriteTie: ({ user, movies, share }, { list }) => `${user} gives ${list(movies)} the same largest weight, ${share} each`,
  summary: ({ parts }) => `${parts.join('; ')}.`,
};
