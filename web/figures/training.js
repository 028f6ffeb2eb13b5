// training.js: what attention-induction and attention-tiny-gpt share, a
// figure whose model trains in a Web Worker (train-worker.js is the other
// side). The worker is a file next to this module (same-origin, as
// worker-src under a strict CSP requires) and loads its own engine; a reset,
// or an attribute change, starts a fresh worker, since a worker busy with a
// training slice would read any message only after it; the figure stops
// its worker when it leaves the page.
import { setText } from './dom.js';
import { FigureElement } from './figure-element.js';
import { wasmBaseUrl } from './engine.js';

export class TrainingFigure extends FigureElement {
  connectedCallback() {
    super.connectedCallback();
    if (this.attn && !this.worker) this.reset();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.worker?.terminate();
    this.worker = null;
  }

  attributeChangedCallback(name, old, value) {
    super.attributeChangedCallback(name, old, value);
    // a new language rewords the figure (FigureElement rebuilds it); the run goes on
    if (this.worker && old !== value && name !== 'lang') this.reset();
  }

  /** A fresh worker from `file`, posted {type: 'reset', options}; its messages go to this.receive. */
  spawn(file, options) {
    this.worker?.terminate();
    this.error = null;
    this.worker = new Worker(new URL(`./${file}`, import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', ({ data }) => this.receive(data));
    this.worker.addEventListener('error', (e) => { e.preventDefault(); this.fail(this.t('trainingFailed', { message: e.message || this.t('couldNotLoad') })); });
    const base = wasmBaseUrl() ?? new URL('../../build/', import.meta.url);
    this.worker.postMessage({ type: 'reset', options, wasmBase: String(base) });
  }

  /** Start or pause training (this.msg: the worker's latest progress). */
  toggle() {
    if (!this.worker || this.msg.step >= this.msg.steps) return;
    if (this.msg.running) {
      this.worker.postMessage({ type: 'pause' });
      return;
    }
    this.msg.running = true; // until the worker says otherwise
    this.worker.postMessage({ type: 'start' });
    this.invalidate();
  }

  /**
   * Start a worker if there is none, set the start/pause button (this.run)
   * to the run, and say where the run is: {step, steps, running, done,
   * trainingMs, rate (words), state (a string key)}.
   */
  progress() {
    if (!this.worker && !this.error) this.reset();
    const { step, steps, running, trainingMs, loading } = this.msg;
    const done = step >= steps;
    setText(this.run, this.t(running ? 'pause' : step ? 'continue' : 'start'));
    this.run.disabled = done || !!this.error;
    const rate = trainingMs > 0 ? this.t('rate', { n: Math.round((1000 * step) / trainingMs) }) : '';
    const state = running ? 'training' : done ? 'done' : step ? 'paused' : loading ? 'loadingModel' : 'ready';
    return { step, steps, running, done, trainingMs, rate, state };
  }

  fail(message) {
    this.error = message;
    this.worker?.terminate();
    this.worker = null;
    this.invalidate();
  }
}
