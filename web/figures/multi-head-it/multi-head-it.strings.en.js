// multi-head-it.strings.en.js: the words of <attention-multi-head-it> (format:
// i18n.js). The sentence "The animal didn't cross the road because it was too
// tired / wide" and its words (it, animal, road, tired, wide) are the
// example's own content (multi-head-it.model.js), not UI: they stay English
// in both languages, and the tables refer to them as {word}, {referent}, ...
// In English; multi-head-it.strings.zh.js holds the same keys in Simplified Chinese.

export default {
  title: 'Who is \u201cit\u201d? One head against two',
  adjectiveLabel: 'Adjective',
  heads: 'Heads',
  oneHead: 'one head',
  twoHeads: 'two heads',
  tip: 'Noun head leans',
  tipEven: 'even',
  tipToward: '{word} {amount}',
  headOn: 'head {n} on',
  noun: 'noun', animate: 'animate', adjective: 'adjective', pronoun: 'pronoun', role: 'role', other: 'other',
  nounNote: 'a thing \u201cit\u201d could stand for: animal, road',
  animateNote: '+1 alive, \u22121 not. \u201ctired\u201d leans +1 (tired things are alive), \u201cwide\u201d leans \u22121 (roads are wide, animals rarely): the clue',
  adjectiveNote: 'a describing word',
  pronounNote: '\u201cit\u201d, the only word whose question we follow',
  roleNote: '+1 the subject of the sentence, \u22121 the object',
  otherNote: 'every remaining word',
  numbers: 'The toy\u2019s numbers: word vectors and weights',
  featuresIntro: 'Each word is six numbers, one per feature:',
  layerNote: 'The layer computes $Q=XW^Q,\\;K=XW^K,\\;V=XW^V$ and $Y=\\mathrm{Concat}(Z_1,\\dots,Z_h)\\,W^O$. '
    + 'With two heads, columns 1\u20133 of each matrix belong to head 1 and columns 4\u20136 to head 2. '
    + 'Head 1\u2019s query asks for nouns and passes on only \u201ca noun is here\u201d; head 2\u2019s asks for adjectives and passes on their animacy. '
    + 'One head must ask for both at once, and its value then carries the nouns\u2019 animacy too: that is the blend. '
    + 'The query gains are set so that each head\u2019s strongest score is 4 in both models: neither is sharper than the other. Coloured bars mark each head\u2019s columns. '
    + 'Each matrix is coloured on its own scale, full at its largest magnitude; hover or focus a square to read its value.',
  headNote: 'Each head $h$ computes $Z_h=\\mathrm{softmax}\\!\\left(Q_hK_h^T/\\sqrt{d_h}\\right)V_h$ from its own columns, with $d_h=6/(\\text{number of heads})$.',
  note: 'A toy: six hand-set features, one layer, no training. Real models learn hundreds of features across many heads and layers, '
    + 'and their heads rarely split the work this cleanly, but the limit shown here is the same: one head gives each word one weighting of the others.',
  headTitle: 'Head {n}',
  roleOnly: 'the only head',
  roleNouns: 'looks for nouns',
  roleAdjectives: 'looks for adjectives',
  switchedOff: 'switched off',
  headAria: 'Head {n}: weights from it to every word',
  undecided: 'undecided',
  verdictUndecided: 'Read-out: undecided',
  verdict: 'Read-out: it = {referent}',
  right: '\u2714 right',
  wrong: '\u2718 wrong',
  margin: ({ points, noun, animacy }, { count }) => `Margin ${count(points, 'point')}. What \u201cit\u201d gathered from the layer: look for a noun ${noun}, animacy ${animacy}.`,
  readoutNote: 'The read-out is a second attention step from \u201cit\u201d: its query is what the layer gathered '
    + '(how strongly to look for a noun, and which animacy to prefer), and each word offers its noun and animate features as a key. '
    + 'The bars are that step\u2019s weights on the two nouns.',
  perHead: 'in head {n} it attends to {first} and {second}{off}',
  perHeadOff: ' (switched off)',
  summary: ({ heads, adjective, perHead, referent, points }, { count }) => `${heads === 1 ? 'One head' : 'Two heads'}, adjective ${adjective}: ${perHead.join('; ')}. `
    + `Read-out: it = ${referent}, margin ${count(points, 'point')}.`,
};
