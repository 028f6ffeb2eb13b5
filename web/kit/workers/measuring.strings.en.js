// measuring.strings.en.js: the words attention-cost and attention-efficient
// share (measuring.js); each figure's table spreads them under its own and
// may word any of them its own way. Format: i18n.js.
// In English; measuring.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  linkCopied: 'Link copied: it holds these settings; the timings are measured afresh where it is opened',
  linkInAddressBar: 'The address bar now holds the link: it holds these settings; the timings are measured afresh where it is opened',
  measure: 'Measure up to N = {n}',
  stop: 'Stop',
  stopped: 'Stopped.',
  waiting: 'Waiting for the other measurement on this page to finish, so that neither times the other\u2019s work\u2026',
  measuring: 'Measuring up to N = {n}\u2026',
  again: 'Measuring again up to N = {n}: the last sweep was stopped unfinished\u2026',
  quickLook: 'A quick look up to N = {n} ({took}). Press the button for the full sweep.',
  done: 'Done in {took}.',
  failed: 'Measurement failed: {message}',
  timePlot: 'Time per call',
  nAxis: 'N (log scale)',
  tableCaption: 'Time and memory per call',
  skipped: 'skipped',
  skipRunTime: 'one run would take about {time}',
  skipBudget: 'the time budget is spent',
  skipItem: '{name} from N = {n} on: {why}',
  skipNote: ({ items }) => `Skipped: ${items.join('; ')}.`,
};
