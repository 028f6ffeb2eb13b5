// figure.strings.en.js: the words every figure shares once it has loaded
// (errors, the tools under a figure, the stepper; what it says before that
// is in loading.strings.js). See i18n.js for the format.
// In English; figure.strings.zh.js holds the same keys in Simplified Chinese.
export default {
  exampleRejected: 'The example on this page could not be used ({problem}); the figure shows its own.',
  exampleNotJson: 'it is not valid JSON: {message}',
  // the checks of a page's example (example-data.js); {field} and {like} are the JSON's own field names, as the page wrote them
  exampleNotObject: 'it must be a JSON object with the fields {fields}',
  exampleList: '"{field}" must be a list of {min} to {max} entries, it has {got}',
  exampleCount: '"{field}" must have {want} entries, as many as "{like}", it has {got}',
  exampleNumbers: '{where} must be {want} numbers from {lo} to {hi}',
  exampleLabel: '{where} must be a text of 1 to {max} letters (or up to {half} Chinese characters)',
  exampleRepeat: '{where} repeats an earlier one',
  stringsNotJson: 'The strings on this page could not be used (they are not valid JSON: {message}).',
  copyLink: 'Copy link',
  linkCopied: 'Link copied',
  linkInAddressBar: 'The address bar now holds the link',
  download: 'Download',
  downloadFailed: 'The download could not be made: what makes the files did not load ({message}).',
  stepPrevious: 'Previous step',
  stepNext: 'Next step',
  stepPlay: 'Play all steps',
  stepPause: 'Pause',
  step: 'Step',
  measuringFailed: 'The measuring worker failed: {message}.',
  trainingFailed: 'the training worker failed: {message}',
  // the training figures (training.js)
  start: 'Start training',
  continue: 'Continue training',
  pause: 'Pause',
  trained: 'Trained',
  reset: 'Reset',
  rate: ' \u00b7 {n} steps/s',
  training: 'training\u2026', done: 'done', paused: 'paused', loadingModel: 'loading the model\u2026', ready: 'ready', idle: 'not started',
  summaryIdle: ', not started: Start trains the model in this page',
  restarted: 'ready; training starts again from step 0, since the figure was taken off the page',
  linkWithoutRun: '. It holds these settings, not the training: the model trains afresh for whoever opens it.',
  couldNotLoad: 'it could not load',
  // (a script that did not load gives no reason: `why` is empty then)
  workerNotLoaded: ({ url, why }) => `could not load ${url}${why ? ` (${why})` : ''}; a worker script from another origin needs its server to send Access-Control-Allow-Origin, and a page with a Content-Security-Policy must name that origin in worker-src`,
  identical: 'identical',
  identicalRounding: 'identical up to float32 rounding',
  different: 'different',
  matrixLabel: '{name}, {rows} by {cols} matrix. Focus and use arrow keys to read values.',
};
