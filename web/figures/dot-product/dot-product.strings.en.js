// dot-product.strings.en.js: the words of <attention-dot-product> (format: i18n.js).
// In English; dot-product.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'How well does this movie suit this user?',
  user: 'User u: tastes',
  movie: 'Movie m: content',
  userEnds: '\u22121 strong dislike \u2026 +1 strong liking',
  movieEnds: '\u22121 clearly absent \u2026 +1 strongly present',
  action: 'action',
  romance: 'romance',
  comedy: 'comedy',
  score: 'score',
  term: '{feature}: {u} \u00d7 {m} = {p}, {reading}',
  hardlyMatters: 'hardly matters',
  dislikedAbsent: 'disliked and absent: a match',
  likedPresent: 'liked and present: a match',
  dislikedPresent: 'disliked but present: a mismatch',
  likedAbsent: 'liked but absent: a mismatch',
  summary: ({ score, features, products }) => `Score ${score}: ${features.map((f, i) => `${f} ${products[i]}`).join(', ')}.`,
  note: 'The score is the dot product $\\boldsymbol{u}^T\\boldsymbol{m}=\\sum_f u_f m_f$: one product per feature, added up. '
    + 'Signs matter as much as sizes: two negatives make a positive term. '
    + 'Colours are full at \u00b11, the score\u2019s at \u00b13, the largest a score of three such products can reach.',
};
