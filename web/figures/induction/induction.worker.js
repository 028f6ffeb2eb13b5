// induction.worker.js: trains <attention-induction>'s model off the page's
// main thread, so the page never stalls. Its engine is the compiled module
// the page posts (the full engine, best build); train-worker.js trains in
// slices of about 30 ms and reads the messages between slices.
//   in:  {type: 'reset', options, module}   a fresh run, not started
//        {type: 'start'}, {type: 'pause'}
//        {type: 'ablate', off: [[layer, head], ...]}   (switched off until the next start)
//   out: {type: 'state', step, steps, running, trainingMs, curve: new points, milestone, view?}
//        {type: 'error', message}
//   milestone = null or {step, trainingMs}: run.milestone, and the training time it took
//   view = {tokens, period, attention[layer][head], scores[layer][head], losses}
import { createRun, measure } from './induction.model.js';
import { serveTraining } from '../../kit/workers/train-worker.js';

const VIEW_MS = 100; // the heads are measured and drawn at most this often

let lastView = 0;
let off = [];
let milestoneMs = 0;

// The held-out sequence the figure draws: the first one with at least three passes.
const sampleOf = (evalSet) => {
  const b = Math.max(0, evalSet.periods.findIndex((p) => p <= 11));
  return { tokens: evalSet.sequences[b], period: evalSet.periods[b] };
};

function view(run) {
  const { tokens, period } = sampleOf(run.evalSet);
  return {
    tokens: Array.from(tokens), period,
    attention: run.model.attention(tokens),
    scores: run.scores(),
    losses: off.length ? measure(run.model, run.evalSet) : run.curve.at(-1),
  };
}

function setOff(run, list) {
  for (const [l, h] of off) run.model.ablate(l, h, false);
  off = list;
  for (const [l, h] of off) run.model.ablate(l, h, true);
}

serveTraining({
  create(attn, options) {
    off = [];
    return createRun(attn, options);
  },
  afterStep(run, trainingMs) {
    if (run.milestone?.step === run.step) milestoneMs = trainingMs;
  },
  start(run) {
    setOff(run, []);
    lastView = performance.now();
  },
  // Between slices the view goes out at most every VIEW_MS, and always when the run stops.
  state(run, { inLoop, running }) {
    let withView = true;
    if (inLoop) {
      const now = performance.now();
      withView = !running || now - lastView >= VIEW_MS;
      if (withView) lastView = now;
    }
    return { view: withView ? view(run) : undefined, milestone: run.milestone && { ...run.milestone, trainingMs: milestoneMs } };
  },
  messages: {
    ablate(run, data, { running, post }) {
      if (running) return;
      setOff(run, data.off);
      post();
    },
  },
});
