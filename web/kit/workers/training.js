// training.js: what attention-induction and attention-tiny-gpt share, a
// figure whose model trains in a Web Worker (train-worker.js is the other
// side). The worker is a file next to the figure's module (same-origin, as
// worker-src under a strict CSP requires) and loads its own engine once; a
// reset, or an attribute change, starts a fresh run in it (numbered: what an
// earlier run still says is dropped). The figure stops its worker when it
// leaves the page; put back, it starts afresh and says so if that lost a run.
//
// A subclass gives `static worker` (its worker file's URL), runOptions() (what
// the worker's reset gets: the attributes that make a new run), clear()
// (forget the drawn run) and receive(msg) (the worker's messages), and draws
// this.msg, the worker's latest progress, through progress().
import { setText } from '../dom.js';
import { FigureElement } from '../figure-element.js';
import { wasmBaseUrl } from '../engine.js';

export class TrainingFigure extends FigureElement {
  #pongs = new Map(); // ping id -> resolve (settled())
  #pings = 0;
  #runs = 0; // the number of the current run

  constructor() {
    super();
    this.msg = this.loadingMessage();
  }

  // until the worker's first message (which carries no `loading`) replaces it
  loadingMessage() {
    return { step: 0, steps: this.state.steps, running: false, trainingMs: 0, loading: true };
  }

  onPage() {
    if (this.worker || this.error) return;
    const lost = this.msg.step > 0;
    this.reset();
    this.restarted = lost;
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#stop();
  }

  attributeChangedCallback(name, old, value) {
    super.attributeChangedCallback(name, old, value);
    // a new language rewords the figure (FigureElement rebuilds it) and a new view of the run redraws it; the run goes on
    if (this.worker && old !== value && Object.hasOwn(this.runOptions(), name)) this.reset();
  }

  /** A fresh model and run (in the worker there is, else in a new one). */
  reset() {
    this.msg = this.loadingMessage();
    this.restarted = false;
    this.clear();
    this.error = null;
    if (!this.worker) {
      const worker = new Worker(this.constructor.worker, { type: 'module' });
      worker.addEventListener('message', ({ data }) => {
        if (data?.type === 'pong') this.#pongs.get(data.id)?.();
        else if (data?.run === this.#runs) this.receive(data);
      });
      worker.addEventListener('error', (e) => { e.preventDefault(); this.fail(this.t('trainingFailed', { message: e.message || this.t('couldNotLoad') })); });
      this.worker = worker;
    }
    this.worker.postMessage({ type: 'reset', run: ++this.#runs, options: this.runOptions(), wasmBase: wasmBaseUrl() });
    this.invalidate();
  }

  #stop() {
    this.worker?.terminate();
    this.worker = null;
    for (const resolve of this.#pongs.values()) resolve(); // nothing more will come from it
  }

  /** Start or pause training. */
  toggle() {
    if (!this.worker || this.msg.step >= this.msg.steps) return;
    if (this.msg.running) {
      this.worker.postMessage({ type: 'pause' });
      return;
    }
    this.msg.running = true; // until the worker says otherwise
    this.restarted = false;
    this.worker.postMessage({ type: 'start' });
    this.invalidate();
  }

  /**
   * Resolves once the worker has answered every message posted to it so far
   * (a worker replaced meanwhile: the new one), and the answers are drawn.
   */
  async settled() {
    for (let worker = this.worker; worker; worker = this.worker === worker ? null : this.worker) {
      const id = ++this.#pings;
      await new Promise((resolve) => {
        this.#pongs.set(id, resolve);
        worker.postMessage({ type: 'ping', id });
      });
      this.#pongs.delete(id);
    }
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }

  linkLeavesOut() {
    return this.msg.step > 0 || this.msg.running ? ['linkWithoutRun'] : null;
  }

  /**
   * Set the start/pause button (this.run) to the run (a focused button that
   * the run's end disables hands focus to Reset, this.resetButton), and say where the run is:
   * {step, steps, running, done, trainingMs, rate (words), state (a string
   * key), phase (what announce() marks)}.
   */
  progress() {
    const { step, steps, running, trainingMs, loading } = this.msg;
    const done = step >= steps;
    setText(this.run, this.t(running ? 'pause' : done ? 'trained' : step ? 'continue' : 'start'));
    const focused = this.shadowRoot.activeElement === this.run;
    this.run.disabled = done || !!this.error;
    if (focused && this.run.disabled) this.resetButton.focus();
    const rate = trainingMs > 0 ? this.t('rate', { n: Math.round((1000 * step) / trainingMs) }) : '';
    const state = running ? 'training' : done ? 'done' : step ? 'paused' : loading ? 'loadingModel' : this.restarted ? 'restarted' : 'ready';
    return { step, steps, running, done, trainingMs, rate, state, phase: this.error ? 'error' : state };
  }

  fail(message) {
    this.error = message;
    this.#stop();
    this.invalidate();
  }
}
