// tiny-gpt.worker.js: trains <attention-tiny-gpt>'s model off the page's
// main thread (like induction.worker.js): its own engine, training in slices
// of about 30 ms, messages read between slices.
//   in:  {type: 'reset', options, wasmBase}   a fresh run, not started
//        {type: 'start'}, {type: 'pause'}
//        {type: 'write', prompt}   the three decodings of prompt (when not training)
//        {type: 'attend', text}    every head's attention on text
//   out: {type: 'state', step, steps, running, trainingMs, curve: new points, bigram, samples: new ones}
//        {type: 'written', prompt, decodings}   {type: 'attended', view}   {type: 'error', message}
import { loadAttention, simdSupported } from '../attention.js';
import { attentionOn, createRun, decodings } from './tiny-gpt.model.js';
import { ARTICLE_TEXT } from './tiny-gpt.text.js';

const SLICE_MS = 30;
const SAMPLE_EVERY = 100; // steps between two samples "as it learns"

let attn = null;
let run = null;
let running = false;
let sent = 0;
let trainingMs = 0;
let samples = [];
let generation = 0;

async function engine(base) {
  const name = simdSupported() ? 'attention.simd.wasm' : 'attention.wasm';
  return (attn ??= await loadAttention(base ? { wasmUrl: new URL(name, base) } : {}));
}

// A temperature sample from the model as it is now (seeded by the step, so a rerun shows the same).
function sampleNow() {
  const { prompt, temperature } = run.options;
  const d = decodings(run.model, prompt, { seed: run.step + 1, temperature });
  samples.push({ step: run.step, text: d.sample.text });
}

function post() {
  const curve = run.curve.slice(sent);
  sent = run.curve.length;
  self.postMessage({ type: 'state', step: run.step, steps: run.options.steps, running, trainingMs, curve, bigram: run.bigram, samples });
  samples = [];
}

async function loop(mine) {
  while (running && mine === generation && !run.done) {
    const t0 = performance.now();
    do {
      run.train(1);
      if (run.step % SAMPLE_EVERY === 0) sampleNow();
    } while (!run.done && performance.now() - t0 < SLICE_MS);
    trainingMs += performance.now() - t0;
    if (run.done) running = false;
    post();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

async function handle(data) {
  try {
    if (data?.type === 'reset') {
      running = false;
      generation++;
      run?.dispose();
      run = null;
      await engine(data.wasmBase);
      [sent, trainingMs, samples] = [0, 0, []];
      run = createRun(attn, data.options, ARTICLE_TEXT);
      sampleNow();
      post();
    } else if (!run) {
      return;
    } else if (data.type === 'start' && !running && !run.done) {
      running = true;
      loop(++generation);
    } else if (data.type === 'pause' && running) {
      running = false;
      generation++;
      post();
    } else if (data.type === 'write' && !running) {
      self.postMessage({ type: 'written', prompt: data.prompt, step: run.step, decodings: decodings(run.model, data.prompt, { temperature: run.options.temperature }) });
    } else if (data.type === 'attend') {
      self.postMessage({ type: 'attended', view: attentionOn(run.model, data.text) });
    }
  } catch (err) {
    running = false;
    self.postMessage({ type: 'error', message: err.message });
  }
}

let queue = Promise.resolve();
self.addEventListener('message', ({ data }) => { queue = queue.then(() => handle(data)); });
