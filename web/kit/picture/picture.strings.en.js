// picture.strings.en.js: the words of the figures' pictures, drawn without
// a browser (web/kit/picture/, bin/snapshot.js), beyond the figures' own
// (format: i18n.js). In English; picture.strings.zh.js holds the same keys
// in Simplified Chinese.
export default {
  // the pictures' fonts (CSS font-family): the Latin one they are laid out with (text.js) first
  font: "'DejaVu Sans', Verdana, 'Noto Sans', sans-serif",
  mono: "'DejaVu Sans Mono', Menlo, Consolas, monospace",
  setting: '{name}: {value}',
  on: 'on',
  off: 'off',
  untrained: 'Before training, at step 0: the live figure trains this model in the reader\u2019s browser when Start is pressed, so this picture shows the model as it is before Start: untrained.',
  notMeasured: 'Times and memory are measured in the reader\u2019s browser when the figure runs; a picture holds no measurement, so its plots show only what will be measured.',
  measures: 'What it will measure: {items}, for N = {from} to {to}.',
  noTimings: 'measured in the reader\u2019s browser',
};
