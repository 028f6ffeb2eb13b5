// training.js: what attention-induction and attention-tiny-gpt share, a
// figure whose model trains in a Web Worker (train-worker.js is the other
// side). The worker is a file next to the figure's module (same-origin, as
// worker-src under a strict CSP requires; spawn.js starts it from another)
// and starts with the reader's first Start, not with the page: it is given
// the page's compiled module of the full engine (kit/engine.js), so it
// neither fetches nor compiles the .wasm. A reset, or an attribute change,
// starts a fresh run in it (numbered: what an earlier run still says is
// dropped). The figure stops its worker when it leaves the page; put back,
// it starts afresh and says so if that lost a run.
//
// A subclass gives `static worker` (its worker file's URL), runOptions() (what
// the worker's reset gets: the attributes that make a new run), clear()
// (forget the drawn run) and receive(msg) (the worker's messages), and draws
// this.msg, the worker's latest progress, through progress(); it draws what
// the worker says through drawProgress(), paced while the run goes (below).
//
// The worker reports every 30 ms or so of training; drawn each time, a
// phone's main thread (CPU 4x) spent most of the run drawing, and a reader's
// scroll or tap waited up to a fifth of a second. So while it trains, a
// figure draws its progress at most every PACE_MS, and never sooner than
// PACE_FACTOR times what its last drawing took after it (script, style,
// layout and paint of that frame): at most about a fifth of the main thread,
// on any device.
import { h, setText } from '../dom.js';
import { FigureElement } from '../figure-element.js';
import { workerModule } from '../engine.js';
import { spawn } from './spawn.js';
import { parseProp } from '../props.js';

const PACE_MS = 100;
const PACE_FACTOR = 4;

export class TrainingFigure extends FigureElement {
  /** The build the worker trains with (tiny-gpt's claims are tested on the SIMD one). */
  static build = undefined; // the best the engine validates
  #pongs = new Map(); // ping id -> resolve (settled())
  #pings = 0;
  #runs = 0; // the number of the current run
  #paced = 0; // the timer of the next drawing of a run's progress
  #nextAt = 0; // when that may come (performance.now())
  #due = false; // a report not drawn yet
  #timing = false; // the last drawing's frame is being timed

  constructor() {
    super();
    this.msg = this.idleMessage();
  }

  /**
   * A box for the loss plot, whose width as laid out is this.plotWidth (0
   * until it is), noted as it changes: read in render, the page would be
   * laid out mid-render.
   */
  plotArea() {
    const el = h('div');
    this.plotWidth = 0;
    new ResizeObserver(([e]) => {
      const w = Math.round(e.contentRect.width);
      if (w === this.plotWidth) return;
      this.plotWidth = w;
      this.invalidate();
    }).observe(el);
    return el;
  }

  // before the worker runs: a run at step 0, not loaded (the worker starts with the first Start)
  idleMessage() {
    return { step: 0, steps: this.state.steps, running: false, trainingMs: 0 };
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
    if (old === value || !Object.hasOwn(this.runOptions(), name)) return;
    if (this.worker) this.reset();
    else if (!this.msg.step) this.msg = this.idleMessage(); // (a budget shown before Start)
  }

  /**
   * Draw the worker's progress (this.msg): at once when the run has
   * stopped, else paced (PACE_MS, PACE_FACTOR).
   */
  drawProgress() {
    if (!this.msg.running) return this.#drawNow();
    this.#due = true;
    this.#pace();
  }

  // The next drawing of a report, once the last one has been drawn and timed, at #nextAt.
  #pace() {
    if (this.#paced || this.#timing || !this.#due) return;
    this.#paced = setTimeout(() => {
      [this.#paced, this.#due, this.#timing] = [0, false, true];
      // what the frame with the drawing takes: from its first callback to a task after it
      requestAnimationFrame(() => {
        const t0 = performance.now();
        const { port1, port2 } = new MessageChannel();
        port1.onmessage = () => {
          this.#timing = false;
          this.#nextAt = performance.now() + Math.max(PACE_MS, PACE_FACTOR * (performance.now() - t0));
          this.#pace();
        };
        port2.postMessage(0);
      });
      this.invalidate();
    }, Math.max(0, this.#nextAt - performance.now()));
  }

  #drawNow() {
    clearTimeout(this.#paced);
    [this.#paced, this.#due] = [0, false];
    this.invalidate();
  }

  /** A fresh model and run: in the worker there is, else at step 0 until the reader starts one. */
  reset() {
    this.msg = this.idleMessage();
    this.restarted = false;
    this.clear();
    this.error = null;
    if (this.worker) this.#resetWorker();
    this.invalidate();
  }

  /**
   * Start the worker unless it runs (a reader's Start, or a question only
   * the model answers): it gets the page's compiled module of the full
   * engine and a fresh run. False when the figure has failed.
   */
  wake({ start = false } = {}) {
    if (this.error) return false;
    if (this.worker) return true;
    this.worker = spawn(this.constructor.worker, {
      onMessage: (data) => {
        if (data?.type === 'pong') this.#pongs.get(data.id)?.();
        else if (data?.run === this.#runs) this.receive(data);
      },
      onError: (message) => this.fail(this.say(['trainingFailed', { message: message ?? ['couldNotLoad'] }])),
    });
    this.#resetWorker(start);
    this.invalidate();
    return true;
  }

  #resetWorker(start = false) {
    this.msg = { ...this.idleMessage(), loading: true }; // until the worker's first message replaces it
    const message = { type: 'reset', run: ++this.#runs, options: this.runOptions(), start };
    this.post(workerModule('all', this.constructor.build).then((module) => ({ ...message, module })));
  }


  /** Post a message (or a promise of one) to the worker, if it runs, after those posted before. */
  post(message) {
    this.worker?.post(message);
  }

  #stop() {
    clearTimeout(this.#paced);
    [this.#paced, this.#due] = [0, false];
    this.worker?.terminate();
    this.worker = null;
    for (const resolve of this.#pongs.values()) resolve(); // nothing more will come from it
  }

  /** Start or pause training (the first Start starts the worker). */
  toggle() {
    if (this.msg.step >= this.msg.steps || this.error) return;
    if (this.msg.running) {
      this.post({ type: 'pause' });
      return;
    }
    if (this.worker) this.post({ type: 'start' });
    else this.wake({ start: true });
    this.msg.running = true; // until the worker says otherwise
    this.restarted = false;
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
        worker.post({ type: 'ping', id });
      });
      this.#pongs.delete(id);
    }
    if (this.#due) this.#drawNow(); // (its progress too, not at its pace)
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }

  // Not started, with the settings the page's attributes give (not a reader's
  // or a link's): the page's picture draws that model, untrained, with its heads and losses.
  printsPicture() {
    if (this.worker || this.msg.step || this.error || this.restarted) return false;
    const { props } = this.constructor;
    return Object.keys(this.runOptions()).every((k) => this.state[k] === parseProp(props[k], this.getAttribute(k)));
  }

  linkLeavesOut() {
    return this.msg.step > 0 || this.msg.running ? ['linkWithoutRun'] : null;
  }

  /**
   * Set the start/pause button (this.run) to the run (a focused button that
   * the run's end disables hands focus to Reset, this.resetButton), and say where the run is:
   * {step, steps, running, done, trainingMs, rate (words), state (a string
   * key: 'idle' before the worker runs), phase (what announce() marks)}.
   */
  progress() {
    const { step, steps, running, trainingMs, loading } = this.msg;
    const done = step >= steps;
    setText(this.run, this.t(running ? 'pause' : done ? 'trained' : step ? 'continue' : 'start'));
    const focused = this.shadowRoot.activeElement === this.run;
    this.run.disabled = done || !!this.error;
    if (focused && this.run.disabled) this.resetButton.focus();
    const rate = trainingMs > 0 ? this.t('rate', { n: Math.round((1000 * step) / trainingMs) }) : '';
    const state = running ? 'training' : done ? 'done' : step ? 'paused' : loading ? 'loadingModel' : this.restarted ? 'restarted' : this.worker ? 'ready' : 'idle';
    return { step, steps, running, done, trainingMs, rate, state, phase: this.error ? 'error' : state };
  }

  fail(message) {
    this.error = message;
    this.#stop();
    this.msg = { ...this.msg, running: false, loading: false }; // (the start button no longer says Pause)
    this.invalidate();
  }
}
