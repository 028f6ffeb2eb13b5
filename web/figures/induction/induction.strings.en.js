// induction.strings.en.js: the words of <attention-induction> (format: i18n.js).
// Head names such as L2H1 (layer 2, head 1) are notation, the same in both
// languages; the sample's letters are the example, not words.
// In English; induction.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  title: 'Watch a tiny transformer learn to copy, in your browser',
  layers: 'Layers',
  layerCount: ({ n }) => `${n} layer${n === 1 ? '' : 's'}`,
  status: 'Step {step} of {steps} \u00b7 {time} of training{rate} \u00b7 {state}',
  stopped: 'This figure stopped: {error}.',
  failed: 'training failed: {message}',
  milestone: 'A layer-2 head\u2019s prefix-matching score was first above 0.5 at step {step} (the scores are measured every {every} steps), after {time} of training.',
  legendFirst: 'loss on the first pass (unpredictable)',
  legendRepeats: 'loss on the repeats (copyable)',
  stepAxis: 'training step',
  lossAxis: 'loss (nats)',
  uniform: 'a uniform guess: ln {vocab} = {value}',
  plotLabel: 'Held-out loss on the first pass and on the repeats against the training step',
  sampleNote: 'One held-out sequence (its passes shaded), and what every head attends to in it: row i of a map is the query at token i, column j the key at token j; darker is more weight.',
  headsIdle: 'Press Start training to see the sample and every head\u2019s attention on it: untrained at first, then as the model learns to copy.',
  headsLoading: 'Every head\u2019s attention on the sample shows here once the model has loaded.',
  sample: 'The sample: a segment of {period}, repeated: ',
  layerGroup: 'layer {l}',
  layer: 'Layer {l}',
  head: 'Layer {l}, head {h}',
  headMap: 'attention of layer {l}, head {h} on the sample',
  readout: '{head}: query {i} ({qt}) \u2192 key {j} ({kt}): weight {w}',
  previousToken: 'previous token',
  prefixMatching: 'prefix matching',
  switchOff: 'switch {head} off',
  ablationLater: 'When training stops, switch heads off here to see what each one does for the loss.',
  ablationNone: 'Held-out loss on the repeats: {now} now, {before} before training. Switch heads off to see which ones carry the copying.',
  headList: ({ names }) => names.join(', '),
  ablationOff: 'With {names} off: loss on the repeats {loss} (trained {trained}, before training {before}), so {back}% of what training removed comes back; first pass {first}.',
  summary: '{layers}, step {step} of {steps}{state}.{losses}{milestone} {scores}',
  summaryTraining: ', training',
  summaryDone: ', done',
  summaryRestarted: ', from the start again: the figure was taken off the page, which ended its training',
  summaryLosses: ' Held-out loss {first} on the first pass, {repeats} on the repeats.',
  scores: ({ items }) => `${items.join('; ')}.`,
  score: '{head} previous-token {previous}, prefix-matching {prefix}',
  note: 'Scores, averaged over 32 held-out sequences: **previous token** is the weight a query puts on the token just before it; '
    + '**prefix matching** is the weight a query puts on the tokens that followed earlier copies of its own token, over the queries whose token came before. '
    + 'Elhage et al. (2021) named previous-token heads and induction heads; prefix matching is the first of the two criteria by which Olsson et al. (2022) '
    + 'recognise an induction head (the second, copying, is not scored here). '
    + 'The model: {vocab} tokens, {context} positions, width {width}, {heads} heads per layer, no MLP and no LayerNorm, '
    + 'trained with AdamW (learning rate {lr}) on batches of {batch} fresh sequences.',
};
