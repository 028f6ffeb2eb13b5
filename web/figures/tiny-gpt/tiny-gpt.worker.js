// tiny-gpt.worker.js: trains <attention-tiny-gpt>'s model off the page's
// main thread (like induction.worker.js): the page's compiled module (the
// full engine, SIMD build), training in slices of about 30 ms, messages read
// between slices (train-worker.js).
//   in:  {type: 'reset', options, module}   a fresh run, not started
//        {type: 'start'}, {type: 'pause'}
//        {type: 'write', prompt}   the three decodings of prompt (when not training)
//        {type: 'attend', text}    every head's attention on text
//   out: {type: 'state', step, steps, running, trainingMs, curve: new points, bigram, samples: new ones}
//        {type: 'written', typed, step, decodings}   {type: 'attended', text, view}   {type: 'error', message}
//   (typed and text: what the figure sent; decodings and view: what the model read of it, see tiny-gpt.model.js)
import { attentionOn, createRun, decodings } from './tiny-gpt.model.js';
import { ARTICLE_TEXT } from '#article-text';
import { serveTraining } from '../../kit/workers/train-worker.js';

const SAMPLE_EVERY = 100; // steps between two samples "as it learns"

let samples = [];

// A temperature sample from the model as it is now (seeded by the step, so a rerun shows the same).
function sampleNow(run) {
  const { prompt, temperature } = run.options;
  const d = decodings(run.model, prompt, { seed: run.step + 1, temperature });
  samples.push({ step: run.step, text: d.sample.text });
}

serveTraining({
  create(attn, options) {
    samples = [];
    const run = createRun(attn, options, ARTICLE_TEXT);
    sampleNow(run);
    return run;
  },
  afterStep(run) {
    if (run.step % SAMPLE_EVERY === 0) sampleNow(run);
  },
  state(run) {
    const fresh = samples;
    samples = [];
    return { bigram: run.bigram, samples: fresh };
  },
  messages: {
    write(run, data, { running, send }) {
      if (running) return;
      send({ type: 'written', typed: data.prompt, step: run.step, decodings: decodings(run.model, data.prompt, { temperature: run.options.temperature }) });
    },
    attend(run, data, { send }) {
      send({ type: 'attended', text: data.text, view: attentionOn(run.model, data.text) });
    },
  },
});
