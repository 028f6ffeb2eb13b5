// measuring.js: what attention-cost and attention-efficient share, a figure
// that measures in a Web Worker. The worker is a file next to this module
// (the bundle's folder once bundled: a same-origin script, as worker-src
// under a strict CSP requires) and loads its own engine from the figures'
// wasm folder; the figure keeps its results, a status line, and stops the
// worker when asked or when it leaves the page.
import { FigureElement } from './figure-element.js';
import { wasmBaseUrl } from './engine.js';

export class MeasuringFigure extends FigureElement {
  /**
   * Start `file` as a module worker for a sweep up to maxN: it is posted
   * {type: 'run', maxN, ...message, wasmBase}, and its messages go to
   * this.receive(msg). this.results starts empty.
   */
  measure(file, maxN, message, status) {
    this.stop();
    this.results = [];
    this.maxN = maxN;
    this.started = performance.now();
    const worker = new Worker(new URL(`./${file}`, import.meta.url), { type: 'module' });
    worker.addEventListener('message', ({ data }) => this.receive(data));
    worker.addEventListener('error', (e) => { e.preventDefault(); this.stop(this.t('measuringFailed', { message: e.message || this.t('couldNotLoad') })); });
    const base = wasmBaseUrl() ?? new URL('../../build/', import.meta.url);
    worker.postMessage({ type: 'run', maxN, ...message, wasmBase: String(base) });
    this.worker = worker;
    this.statusText = status;
    this.invalidate();
  }

  /**
   * The status line in words. It is kept as [key, args] pairs (or a worded
   * string) and worded only when drawn, so it follows a change of language
   * mid-sweep.
   */
  statusWords() {
    const status = this.statusText ?? '';
    return typeof status === 'string' ? status : status.map((pair) => this.say(pair)).join('');
  }

  /** Stop the worker (if any), with a status message to show. */
  stop(message) {
    this.worker?.terminate();
    this.worker = null;
    if (message) this.statusText = message;
    this.invalidate();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.stop();
  }
}
