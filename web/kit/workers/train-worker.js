// train-worker.js: what the figures' training workers share
// (induction.worker.js, tiny-gpt.worker.js): one run at a time, trained off
// the page's main thread in slices of about 30 ms, its messages read between
// slices, one message at a time and in order (a start sent while a reset is
// still loading the engine waits for it).
//   in:  {type: 'reset', run, options, module, start?}   a fresh run (numbered by the figure), started if `start`;
//        module: the full engine, compiled by the page (a WebAssembly.Module)
//        {type: 'start'}, {type: 'pause'}, and the figure's own messages
//        {type: 'ping', id}   answered once every earlier message is
//   out: {type: 'state', run, step, steps, running, trainingMs, curve: new points, ...the figure's fields}
//        {type: 'pong', id}   {type: 'error', run, message}
// Every message but pong carries the number of the run it is about, so
// that the figure can drop what an earlier run said after a reset.
import { loadAttention } from '../../attention.js';

const SLICE_MS = 30; // training per slice: messages are read between slices

/**
 * Serves a figure's training run from this worker. The figure gives:
 *   create(attn, options) -> run      a fresh run: {train(n), step, done, curve, options, dispose()}
 *   start(run)                        before training starts or resumes (optional)
 *   afterStep(run, trainingMs)        after every training step, with the
 *                                     training time so far (optional)
 *   state(run, {inLoop, running})     its own fields of a state message
 *                                     (inLoop: posted between slices)
 *   messages: {type: (run, data, {running, post, send}) => void}   its own messages
 *                                     (send(message): post one of its own, numbered)
 */
export function serveTraining(figure) {
  let attn = null;
  let run = null;
  let running = false;
  let sent = 0; // curve points already posted
  let trainingMs = 0;
  let generation = 0; // a loop stops when a pause or reset starts a new one
  let number = 0; // the figure's number of the current run

  const send = (message) => self.postMessage({ ...message, run: number });

  function post(inLoop = false) {
    const curve = run.curve.slice(sent);
    sent = run.curve.length;
    send({
      type: 'state', step: run.step, steps: run.options.steps, running, trainingMs, curve,
      ...figure.state(run, { inLoop, running }),
    });
  }

  async function loop(mine) {
    while (running && mine === generation && !run.done) {
      const t0 = performance.now();
      do {
        run.train(1);
        figure.afterStep?.(run, trainingMs + performance.now() - t0);
      } while (!run.done && performance.now() - t0 < SLICE_MS);
      trainingMs += performance.now() - t0;
      if (run.done) running = false;
      post(true);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  function begin() {
    figure.start?.(run);
    running = true;
    loop(++generation);
  }

  async function handle(data) {
    try {
      if (data?.type === 'ping') {
        self.postMessage({ type: 'pong', id: data.id });
      } else if (data?.type === 'reset') {
        running = false;
        generation++;
        run?.dispose();
        run = null;
        number = data.run;
        attn ??= await loadAttention({ module: data.module, parts: 'all' });
        [sent, trainingMs] = [0, 0];
        run = figure.create(attn, data.options);
        if (data.start) begin(); // (a first Start: no state of a run not started is posted)
        else post();
      } else if (!run) {
        return;
      } else if (data.type === 'start' && !running && !run.done) {
        begin();
      } else if (data.type === 'pause' && running) {
        running = false;
        generation++;
        post();
      } else if (Object.hasOwn(figure.messages, data.type)) {
        figure.messages[data.type](run, data, { running, post, send });
      }
    } catch (err) {
      running = false;
      send({ type: 'error', message: err.message });
    }
  }

  let queue = Promise.resolve();
  self.addEventListener('message', ({ data }) => { queue = queue.then(() => handle(data)); });
}
