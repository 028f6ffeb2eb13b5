// induction.worker.js: trains <attention-induction>'s model off the page's
// main thread, so the page never stalls. It loads its own engine (the
// figures' wasm, from the same folder), trains in slices of about 30 ms and
// reads its messages between slices.
//   in:  {type: 'reset', options, wasmBase}   a fresh run, not started
//        {type: 'start'}, {type: 'pause'}
//        {type: 'ablate', off: [[layer, head], ...]}   (switched off until the next start)
//   out: {type: 'state', step, steps, running, trainingMs, curve: new points, view?}
//        {type: 'error', message}
//   view = {tokens, period, attention[layer][head], scores[layer][head], losses}
import { loadAttention } from '../attention.js';
import { BUILDS, bestBuild } from '../api/load.js';
import { createRun, measure } from './induction.model.js';

const SLICE_MS = 30; // training per slice: messages are read between slices
const VIEW_MS = 100; // the heads are measured and drawn at most this often

let attn = null;
let run = null;
let running = false;
let sent = 0; // curve points already posted
let trainingMs = 0;
let lastView = 0;
let off = [];
let generation = 0; // a loop stops when a pause or reset starts a new one

async function engine(base) {
  const build = bestBuild();
  return (attn ??= await loadAttention(base ? { build, wasmUrl: new URL(BUILDS[build], base) } : { build }));
}

// The held-out sequence the figure draws: the first one with at least three passes.
const sampleOf = (evalSet) => {
  const b = Math.max(0, evalSet.periods.findIndex((p) => p <= 11));
  return { tokens: evalSet.sequences[b], period: evalSet.periods[b] };
};

function view() {
  const { tokens, period } = sampleOf(run.evalSet);
  return {
    tokens: Array.from(tokens), period,
    attention: run.model.attention(tokens),
    scores: run.scores(),
    losses: off.length ? measure(run.model, run.evalSet) : run.curve.at(-1),
  };
}

function post(withView) {
  const curve = run.curve.slice(sent);
  sent = run.curve.length;
  self.postMessage({
    type: 'state', step: run.step, steps: run.options.steps, running, trainingMs, curve,
    view: withView ? view() : undefined,
  });
}

function setOff(list) {
  for (const [l, h] of off) run.model.ablate(l, h, false);
  off = list;
  for (const [l, h] of off) run.model.ablate(l, h, true);
}

async function loop(mine) {
  while (running && mine === generation && !run.done) {
    const t0 = performance.now();
    do run.train(1); while (!run.done && performance.now() - t0 < SLICE_MS);
    trainingMs += performance.now() - t0;
    if (run.done) running = false;
    const now = performance.now();
    const withView = !running || now - lastView >= VIEW_MS;
    if (withView) lastView = now;
    post(withView);
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
      [sent, trainingMs, off] = [0, 0, []];
      run = createRun(attn, data.options);
      post(true);
    } else if (!run) {
      return;
    } else if (data.type === 'start' && !running && !run.done) {
      setOff([]);
      running = true;
      lastView = performance.now();
      loop(++generation);
    } else if (data.type === 'pause' && running) {
      running = false;
      generation++;
      post(true);
    } else if (data.type === 'ablate' && !running) {
      setOff(data.off);
      post(true);
    }
  } catch (err) {
    running = false;
    self.postMessage({ type: 'error', message: err.message });
  }
}

// One message at a time, in order: a start sent while a reset is still
// loading the engine waits for it.
let queue = Promise.resolve();
self.addEventListener('message', ({ data }) => { queue = queue.then(() => handle(data)); });
