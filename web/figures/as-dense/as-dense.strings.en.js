// as-dense.strings.en.js: the words of <attention-as-dense> (format: i18n.js).
// In English; as-dense.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'A fully connected layer is multi-head attention in disguise',
  head: 'head {n}',
  tag: 'tag{n}',
  newWeights: 'New dense weights',
  denseLayer: 'The dense layer',
  asAttention: 'The same layer as attention with {heads} heads',
  check: 'Every row of Y starts with x W + b, **{same}** to the direct layer: largest difference {difference}',
  note: 'Token $i$ carries its input and a tag, both in head $i$\u2019s two columns (the coloured bars). $W^Q=0$ with a bias that asks every head '
    + 'for its tag, and $W^K$ puts each tag in its own head, so head $i$ gives token $i$ weight exactly 1 from every query and the others 0: '
    + 'a fixed pattern, not one computed from the inputs. With $W^V=I$ the concatenated heads $Z$ are just the inputs, so all the learning sits '
    + 'in $W^O$, whose value rows are the dense weights (its tag rows are 0, and $b^O=b$). Fixing the attention to the identity instead, each '
    + 'token attending only to itself, would give a different layer: the same small map applied to every token separately, with nothing mixed between them.',
  scale: 'Colours: the heads\u2019 attention weights are full at 1; every other matrix shares one scale, full at \u00b1{max}.',
  summary: 'Dense output ({output}); the attention version gives the same in every row ({same}, largest difference {difference}).',
};
