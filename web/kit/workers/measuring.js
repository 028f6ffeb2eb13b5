// measuring.js: what attention-cost and attention-efficient share, time and
// memory measured in a Web Worker, as sweeps that belong to the page rather
// than to one figure.
//
// A sweep is one run of a figure kind's worker (a file next to the figure's module,
// the bundle's folder once bundled: a same-origin script, as worker-src
// under a strict CSP requires) up to a largest N. The page keeps the latest
// sweep of each kind and settings (the figure's sweepKey(): cost's d), and
// every figure of that kind and settings shows it: a second copy, a figure
// moved in the page or one made from a link's state shows what was
// measured, without measuring again.
//   - Sweeps take turns: one worker measures at a time, so that no sweep
//     times another's load (two figures starting together on one page).
//   - A sweep that no figure on the page shows is stopped at once (nothing
//     runs for a figure that left the page, or for settings changed away
//     from); a figure that comes back to it measures again and says so.
//   - A new sweep leaves the last one's results on screen until its own
//     first result arrives (a Stop before then loses nothing).
import { FigureElement } from '../figure-element.js';
import { workerModule } from '../engine.js';
import { bestBuild } from '../../api/load.js';
import { spawn } from './spawn.js';
import { h, setText } from '../dom.js';
import { bytes, millis } from '../format.js';

const sweeps = new Map(); // sweep id (worker file and key) -> the latest sweep
const queue = []; // sweeps waiting for their turn, oldest first
let current = null; // the sweep measuring now
const figures = new Set(); // the measuring figures on the page

const ACTIVE = new Set(['waiting', 'running']);

// phase: 'waiting' (for its turn), 'running', then 'done', 'stopped',
// 'failed' (outcome.status says why) or 'interrupted' (no figure showed it)
function sweep(file, builds, key, maxN, message, previous, again) {
  return { id: `${file}|${key}`, file, builds, maxN, message, previous, again, results: [], phase: 'waiting', worker: null, simd: null, started: 0, outcome: null };
}

function notify(sw) {
  for (const f of figures) if (f.sweepId() === sw.id) f.invalidate();
}

/**
 * How long a sweep that has its turn waits before its worker starts: a
 * reader going through cost's d values starts no worker for the values
 * passed over, and no control change pays for starting one in its frame.
 */
export const START_MS = 200;

function next() {
  if (current || !queue.length) return;
  const sw = queue.shift();
  current = sw;
  sw.phase = 'running';
  notify(sw);
  setTimeout(() => start(sw), START_MS);
}

function start(sw) {
  if (sw.phase !== 'running') return; // stopped before its worker started
  sw.started = performance.now();
  const worker = spawn(sw.file, {
    onMessage: (data) => receive(sw, data),
    onError: (message) => finish(sw, 'failed', { status: ['measuringFailed', { message: message ?? ['couldNotLoad'] }] }),
  });
  // the attention part's compiled modules, by name: the page's own engine's, or compiled here once
  const names = Object.keys(sw.builds);
  const modules = Promise.all(names.map((name) => workerModule('attention', sw.builds[name])))
    .then((list) => Object.fromEntries(names.map((name, i) => [name, list[i]])));
  worker.post(modules.then((m) => ({ type: 'run', maxN: sw.maxN, ...sw.message, modules: m })));
  sw.worker = worker;
  notify(sw);
}

function receive(sw, msg) {
  if (sw.phase !== 'running') return;
  if (msg.type === 'start') sw.simd = msg.simd;
  else if (msg.type === 'result') sw.results.push(msg);
  else if (msg.type === 'done') return finish(sw, 'done', { took: performance.now() - sw.started });
  else if (msg.type === 'error') return finish(sw, 'failed', { status: ['failed', { message: msg.message }] });
  notify(sw);
}

/** End a sweep (its worker terminated, its place in the queue given up) and give the next one its turn. */
function finish(sw, phase, outcome = null) {
  if (!ACTIVE.has(sw.phase)) return;
  sw.worker?.terminate();
  sw.worker = null;
  Object.assign(sw, { phase, outcome });
  if (current === sw) current = null;
  const k = queue.indexOf(sw);
  if (k >= 0) queue.splice(k, 1);
  notify(sw);
  next();
}

/** Stop every waiting or running sweep that no figure on the page shows. */
function prune() {
  for (const sw of [current, ...queue]) {
    if (sw && ![...figures].some((f) => f.isConnected && f.sweepId() === sw.id)) finish(sw, 'interrupted');
  }
}

/**
 * A figure that measures. A subclass sets `static worker` (its worker file's URL),
 * `static firstN` (the smallest N its sweeps measure; each doubles N from
 * there) and `static quick` (the largest N of the sweep it starts by itself), and
 * may define builds() (the engines its worker is posted, {name: build} of
 * the attention part; default the page's own as `best`), sweepKey() (the settings its measurements depend on),
 * sweepMessage() (what its worker is posted besides maxN) and
 * statusArgs() (more arguments for the status line's words).
 */
export class MeasuringFigure extends FigureElement {
  static builds() { return { best: bestBuild() }; }
  sweepKey() { return ''; }
  sweepMessage() { return { budgetMs: this.state.budget * 1000 }; }
  statusArgs() { return {}; }

  sweepId() { return `${this.constructor.worker}|${this.sweepKey()}`; }

  /** The page's sweep for this figure's kind and settings (undefined before the first). */
  get sweep() { return sweeps.get(this.sweepId()); }

  /** That sweep while it waits or measures, else null. */
  get worker() { return ACTIVE.has(this.sweep?.phase) ? this.sweep : null; }

  /** What the figure shows: the sweep's results, or until it has some, the last sweep's. */
  get results() {
    const sw = this.sweep;
    if (!sw) return [];
    return sw.results.length || !sw.previous ? sw.results : sw.previous.results;
  }

  /**
   * Start a sweep up to maxN, replacing the page's last one for these
   * settings. `asked`: the reader pressed Measure; only such a sweep
   * measures on every core too (its workers cost a page that only shows the
   * figure's quick look nothing).
   */
  measure(maxN, { again = false, asked = false } = {}) {
    const old = this.sweep;
    if (old) finish(old, 'stopped');
    const previous = old?.results.length ? old : old?.previous;
    if (previous) previous.previous = null; // keep one sweep back, not a chain
    const sw = sweep(this.constructor.worker, this.constructor.builds(), this.sweepKey(), maxN, { ...this.sweepMessage(), cores: asked }, previous, again);
    sweeps.set(sw.id, sw);
    queue.push(sw);
    prune(); // settings changed away from: their sweep goes
    next();
    notify(sw);
  }

  /** Stop this figure's sweep (if it waits or measures). */
  stopSweep() {
    if (this.worker) finish(this.sweep, 'stopped', { status: ['stopped'] });
  }

  /**
   * Called by render: a figure whose settings have no sweep yet starts the
   * quick one; one whose sweep was interrupted measures it again.
   */
  ensureSweep() {
    const sw = this.sweep;
    if (!sw) this.measure(Math.min(this.constructor.quick, this.state.n));
    else if (sw.phase === 'interrupted') this.measure(sw.maxN, { again: true, asked: sw.message.cores });
  }

  /** The Measure / Stop button. The second click of a double click is not a second press. */
  measureButton() {
    // its words, and under them (hidden) Measure's while it says Stop: as wide as those, so the slider beside it does not move
    this.buttonParts = [h('span'), h('span', { class: 'room' })];
    return h('button', {
      type: 'button', class: 'measure',
      onclick: (e) => {
        if (e.detail > 1) return;
        if (this.worker) this.stopSweep();
        else this.measure(this.state.n, { asked: true });
      },
    }, this.buttonParts);
  }

  /** The button's words: Stop while a sweep waits or measures, else Measure up to the largest N. */
  buttonWords() {
    return this.worker ? this.t('stop') : this.t('measure', { n: this.state.n });
  }

  /** Word the button; while it reads Stop it keeps Measure's width (no layout read: its hidden words hold it). */
  showButton() {
    const [words, room] = this.buttonParts;
    setText(words, this.buttonWords());
    setText(room, this.worker ? this.t('measure', { n: this.state.n }) : '');
  }

  /** The status line, worded now (so it follows a change of language mid-sweep). */
  statusWords() {
    const sw = this.sweep;
    if (!sw) return '';
    const args = this.statusArgs();
    const n = sw.maxN;
    if (sw.phase === 'waiting') return this.t('waiting', { ...args, n });
    if (sw.phase === 'running') {
      const last = sw.results.at(-1);
      return last ? this.say(this.progress(last)) : this.t(sw.again ? 'again' : 'measuring', { ...args, n });
    }
    if (sw.phase === 'done') {
      const took = millis(sw.outcome.took);
      return n < this.state.n ? this.t('quickLook', { ...args, n, took }) : this.t('done', { ...args, n, took });
    }
    return sw.outcome?.status ? this.say(sw.outcome.status) : this.t('stopped');
  }

  /**
   * The results as a table: a row per N the sweep measures (empty until
   * measured, so that the table does not grow and shrink as a sweep starts),
   * a column per series ({head, match(result)}), time and memory in each
   * cell; and under it, in words, why each skipped variant was skipped
   * ({name(result), why(result)} word a skip).
   */
  resultsTable(series, { name, why }) {
    const results = this.results;
    const ns = [];
    const last = Math.max(this.sweep?.maxN ?? 0, ...results.map((r) => r.n));
    for (let n = this.constructor.firstN; n <= last; n *= 2) ns.push(n);
    const cell = (n, sr) => {
      const r = results.find((x) => x.n === n && sr.match(x));
      if (!r) return h('td', {}, '');
      if (r.skipped) return h('td', { class: 'skip' }, this.t('skipped'));
      if (r.bytes === undefined) return h('td', {}, h('span', {}, millis(r.ms))); // (on every core: the workers' memory)
      return h('td', {}, [h('span', {}, `${millis(r.ms)} \u00b7`), ' ', h('span', {}, bytes(r.bytes))]);
    };
    const skips = results.filter((r) => r.skipped).map((r) => this.t('skipItem', { name: name(r), n: r.n, why: why(r) }));
    return [
      h('table', {}, [
        h('caption', { class: 'sr-only' }, this.t('tableCaption')),
        h('thead', {}, h('tr', {}, [h('th', {}, 'N'), ...series.map((sr) => h('th', {}, sr.head))])),
        h('tbody', {}, ns.map((n) => h('tr', {}, [h('td', {}, String(n)), ...series.map((sr) => cell(n, sr))]))),
      ]),
      skips.length ? h('p', { class: 'note skips' }, this.t('skipNote', { items: skips })) : null,
    ];
  }

  connectedCallback() {
    figures.add(this);
    super.connectedCallback();
    this.invalidate(); // back on the page: an interrupted sweep measures again
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    figures.delete(this);
    prune();
  }
}
