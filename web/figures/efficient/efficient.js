// <attention-efficient>: the summary post's "recent advances" side by side.
// Full attention, a sliding window with global tokens (Longformer) and
// Performer's random features: each one's weights on a small example, the
// Performer's error against its number of features, and time and memory of
// all three as N grows, measured in a Web Worker (efficient.worker.js; the
// sweeps are the page's, see measuring.js).
// Attributes: window="0..12", global="0,5" (global token positions, from 0),
// features="4..1024" (a power of 2), n="2048..65536" (largest N of the
// sweep, a power of 2), budget="5..120" (s).
//
// A change of a control redraws only what it changes: the window's pattern
// (window, global tokens) or the Performer's (features: its weights and the
// ring on the error curve, moved); the time plot and the table only when
// results arrive. The error curve needs the Performer at every m (54 draws
// of the features, a phone's ~150 ms), so the first drawing computes the
// slider's m alone and the curve follows after it, a count per task.
import { props } from './efficient.props.js';
import { defineFigure } from '../../kit/figure-element.js';
import { h, replace, setText } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { theme } from '../../kit/draw/colors.js';
import { matrixView } from '../../kit/draw/matrix-view.js';
import { MeasuringFigure } from '../../kit/workers/measuring.js';
import { rich } from '../../kit/rich.js';
import { grouped, millis, pct } from '../../kit/format.js';
import { loglogPlot } from '../../kit/draw/loglog.js';
import {
  exactWeights, featureError, featureErrors, parseGlobal, readGlobal, slope, windowPattern, windowTiles,
  CORES, FEATURE_COUNTS, FIRST_N, MECHANISMS, N_TOKENS, SEEDS, SWEEP, TILE,
} from './efficient.model.js';

const LARGEST = [2048, 4096, 8192, 16384, 32768, 65536]; // the choices of the sweep's largest N
const NOTE_N = 16384; // the N the note's tile counts are for
const COLOURS = { full: '--attention-positive', window: '--attention-head-1', linear: '--attention-head-3', [CORES]: '--attention-positive' };

class Efficient extends MeasuringFigure {
  static strings = { en: () => import('./efficient.strings.en.js'), zh: () => import('./efficient.strings.zh.js') };
  static worker = new URL('./efficient.worker.js', import.meta.url);
  static firstN = FIRST_N;
  static quick = 4096; // the sweep that runs by itself when the figure starts (three sizes from N = 1024 for the slopes)

  static props = props;

  static css = `
  .mats { display: flex; flex-wrap: wrap; gap: 14px 18px; align-items: flex-start; }
  .mats figure { margin: 0; }
  /* a matrix as wide as the column allows (on a phone a row is then as tall as it can be), at most 320 px */
  .pattern { flex: 1 1 200px; min-width: 0; max-width: 320px; }
  .pattern .mat, .pattern .layered, .pattern svg { width: 100%; }
  .pattern .sub { margin: 0 0 4px; font-size: 0.92em; font-weight: 600; }
  .pattern p { margin: 4px 0 0; font-size: 0.84em; color: var(--attention-muted); }
  .globals { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; }
  .globals input { font: inherit; width: 9em; min-height: 32px; padding: 2px 6px; color: inherit; background: var(--attention-bg);
    border: 1px solid var(--attention-border); border-radius: 6px; }
  .globals .ignored { flex-basis: 100%; margin: 0; font-size: 0.88em; color: var(--attention-negative); }
  .plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 12px; margin: 10px 0 6px; }
  .plot text { font-size: 10px; fill: var(--attention-muted); }
  .plot .title { font-size: 12px; fill: var(--attention-fg); font-weight: 600; }
  .plot .grid { stroke: var(--attention-border); stroke-width: 0.5; }
  .plot polyline { fill: none; stroke-width: 2; }
  .plot polyline.reference { stroke-width: 1; stroke-dasharray: 3 3; }
  .plot .highlight { fill: none; stroke: var(--attention-accent); stroke-width: 2; }
  .full { stroke: var(--attention-positive); fill: var(--attention-positive); }
  .window { stroke: var(--attention-head-1); fill: var(--attention-head-1); }
  .linear { stroke: var(--attention-head-3); fill: var(--attention-head-3); }
  .guide { stroke: var(--attention-muted); fill: var(--attention-muted); }
  .cores { stroke: var(--attention-positive); fill: var(--attention-positive); }
  .plot polyline.cores { stroke-dasharray: 1 3; stroke-linecap: round; stroke-width: 3; }
  .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.88em; }
  .legend b { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
  .legend b.cores { background: none !important; height: 0; border-top: 3px dotted var(--attention-positive); }
  .status { font-weight: 600; min-height: 1.4em; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.86em; width: 100%; }
  th, td { padding: 2px 6px; text-align: right; border-bottom: 1px solid var(--attention-border); }
  th:first-child, td:first-child { text-align: left; }
  .wrap { overflow-x: auto; }
  td.skip { color: var(--attention-muted); font-style: italic; }
  td span { white-space: nowrap; } /* a narrow cell breaks between time and memory, not inside them */`;

  build() {
    this.windowSlider = slider({ label: this.t('windowW'), min: 0, max: 12, step: 1, value: this.state.window, prop: 'window',
      format: String, oninput: (v) => this.set({ window: Math.round(v) }) });
    this.featureSlider = slider({ label: this.t('featuresM'), values: FEATURE_COUNTS, value: this.state.features, prop: 'features',
      format: String, oninput: (features) => this.set({ features }) });
    // the global tokens, typed: the same as clicking rows, where a row is too small to tap
    this.globalField = h('input', { type: 'text', id: 'global-tokens', autocomplete: 'off', spellcheck: 'false', 'data-prop': 'global',
      onchange: () => this.typedGlobal() });
    this.ignored = h('p', { class: 'ignored', 'aria-live': 'polite' });
    const view = (name, onpick) => matrixView({ t: this.t, name, cell: 10, onpick });
    this.views = {
      exact: view(this.t('matFull')),
      windowed: view(this.t('matWindow'), (i) => this.toggleGlobal(i)),
      performer: view(this.t('matPerformer')),
    };
    this.captions = { exact: h('p'), windowed: h('p'), performer: h('p') };
    const panel = (key, title) => h('div', { class: 'pattern' }, [h('div', { class: 'sub' }, title), this.views[key].el, this.captions[key]]);
    this.nSlider = slider({ label: this.t('largestN'), values: LARGEST, value: this.state.n, prop: 'n', format: String,
      oninput: (n) => this.set({ n }) });
    this.button = this.measureButton();
    this.status = h('p', { class: 'status', 'aria-live': 'polite' });
    this.timePlot = h('div');
    this.slopes = h('p', { class: 'note' });
    this.table = h('div', { class: 'wrap' });
    this.errorPlot = h('div'); // the error curve (drawCurve), once every m is computed
    this.errorSvg = null;
    if (this.curveWork) this.curveWork.then(() => this.drawCurve()); // (a rebuild in another language)
    this.drawn = {}; // what each part was last drawn for (see render)
    const tiles = (global) => windowTiles(NOTE_N, SWEEP.window, global);
    const [band, opened] = [tiles([]), tiles([0])];
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.windowSlider.el, this.featureSlider.el,
        h('div', { class: 'globals' }, [h('label', { for: 'global-tokens' }, this.t('globalTokens')), this.globalField, this.ignored])]),
      h('div', { class: 'mats' }, [panel('exact', this.t('panelFull')),
        panel('windowed', this.t('panelWindow')), panel('performer', this.t('panelPerformer'))]),
      h('p', { class: 'note' }, this.t('weightsNote', { n: N_TOKENS })),
      h('div', { class: 'controls' }, [this.nSlider.el, this.button]),
      this.status,
      this.legend = h('div', { class: 'legend' }),
      h('div', { class: 'plots' }, [this.timePlot, this.errorPlot]),
      this.slopes,
      this.table,
      h('p', { class: 'note' }, rich(this.t('note', {
        tile: TILE, w: SWEEP.window, n: grouped(NOTE_N), keys: Math.round((band * TILE * TILE) / NOTE_N), blocks: Math.round(band / (NOTE_N / TILE)),
        share: (band / (NOTE_N / TILE) ** 2).toFixed(3), ideal: ((2 * SWEEP.window + 1) / NOTE_N).toFixed(3),
        tiles: band, extra: opened - band, more: pct(opened / band - 1),
      }))),
    ]);
  }

  toggleGlobal(i) {
    const g = new Set(parseGlobal(this.state.global));
    if (g.has(i)) g.delete(i); else g.add(i);
    this.set({ global: [...g].sort((a, b) => a - b).join(',') });
  }

  /** The global tokens as typed (numbered from 1); what names no token is said, not silently dropped. */
  typedGlobal() {
    const { positions, ignored } = readGlobal(this.globalField.value, 1);
    setText(this.ignored, ignored.length ? this.t('globalIgnored', { items: ignored.join(', '), n: N_TOKENS }) : '');
    this.globalField.value = this.globalText(positions);
    this.set({ global: positions.join(',') });
  }

  /** Global positions as the figure shows them: numbered from 1, as the matrices' read-outs number rows. */
  globalText(positions) {
    return positions.map((p) => p + 1).join(', ');
  }

  syncControls() {
    this.windowSlider?.set(this.state.window);
    this.featureSlider?.set(this.state.features);
    this.nSlider?.set(this.state.n);
    // (not while the reader types in it)
    if (this.globalField && this.shadowRoot.activeElement !== this.globalField) this.globalField.value = this.globalText(parseGlobal(this.state.global));
  }

  /** A mechanism's name in the sweep (its window and feature count are the sweep's; on every core, the count). */
  mechanismName(mechanism) {
    const cores = this.results.find((r) => r.mechanism === CORES && r.cores)?.cores ?? '';
    return this.t(mechanism, { w: SWEEP.window, m: SWEEP.features, cores });
  }

  /** The status line's words for a result that just arrived. */
  progress(r) {
    return ['measuringLast', { n: r.n, name: this.mechanismName(r.mechanism) }];
  }

  render() {
    this.ensureSweep();
    const { window, features: m } = this.state;
    const global = parseGlobal(this.state.global);
    const th = theme(this.shadowRoot); // a new theme repaints every matrix
    const d = this.drawn;
    // one colour scale for the three: the exact weights' largest
    const exact = exactWeights(this.attn);
    const max = (d.max ??= Math.max(...exact.data));
    if (d.theme !== th) this.views.exact.update(exact, { max });
    const windowKey = `${window}|${global}`;
    if (d.theme !== th || d.window !== windowKey) {
      const w = windowPattern(this.attn, { window, global });
      this.views.windowed.update(w.windowed, { max });
      setText(this.captions.windowed, this.t('captionWindow', {
        kept: pct(w.kept), global: global.length ? this.globalText(global) : this.t('noGlobal'), gap: w.windowGap === 0 ? '0' : w.windowGap.toExponential(0),
      }));
      d.kept = w.kept;
    }
    // the caption, the plot's mark and the summary read the same average; the drawn weights are its first draw
    const at = featureError(this.attn, m);
    if (d.theme !== th || d.features !== m) {
      this.views.performer.update(at.drawn, { max });
      setText(this.captions.performer, this.t('captionPerformer', { m, seeds: SEEDS, misplaced: pct(at.error) }));
      this.markError(at);
    }
    Object.assign(d, { theme: th, window: windowKey, features: m });
    setText(this.captions.exact, this.t('captionFull'));
    this.showButton();
    setText(this.status, this.statusWords());
    const results = this.results;
    if (d.results !== results || d.count !== results.length) {
      Object.assign(d, { results, count: results.length });
      this.renderTimes(results);
    }
    this.announce(this.t('summary', { w: window, kept: pct(d.kept), m, misplaced: pct(at.error) }));
  }

  onPage() {
    super.onPage();
    this.curve();
  }

  /** Resolves once the error curve is computed and drawn. */
  async settled() {
    await this.curveWork;
  }

  /** Compute the Performer at every m after the first drawing, a count per task (a reader's input comes between two), then draw the curve. */
  curve() {
    this.curveWork ??= new Promise((resolve) => {
      const todo = FEATURE_COUNTS.slice();
      const next = () => {
        if (!todo.length) return resolve();
        featureError(this.attn, todo.pop()); // (the largest, costliest, first)
        setTimeout(next, 0);
      };
      requestAnimationFrame(() => setTimeout(next, 0));
    }).then(() => this.drawCurve());
  }

  /** The Performer's error against m (the same for every state: drawn once), with a ring on the slider's m. */
  drawCurve() {
    const errors = featureErrors(this.attn);
    const [first, last] = [errors[0], errors.at(-1)];
    this.errorSvg = loglogPlot({
      title: this.t('errorPlot'),
      series: [{ cls: 'linear', points: errors.map((r) => [r.m, r.error]) }],
      xTicks: FEATURE_COUNTS.filter((k, i) => i % 2 === 0), xLabel: this.t('mAxis'), yFormat: pct, base: 2,
      highlight: [first.m, first.error],
    });
    this.errorLabel = (at) => this.t('errorLabel', { first: pct(first.error), m0: first.m, last: pct(last.error), m1: last.m, m: at.m, at: pct(at.error), seeds: SEEDS });
    replace(this.errorPlot, [this.errorSvg]);
    this.markError(featureError(this.attn, this.state.features));
  }

  /** Move the error plot's ring to m's point (the curve's own dot there), once the curve is drawn. */
  markError(at) {
    if (!this.errorSvg) return;
    const dot = this.errorSvg.querySelectorAll('circle.linear')[FEATURE_COUNTS.indexOf(at.m)];
    const ring = this.errorSvg.querySelector('.highlight');
    ring.setAttribute('cx', dot.getAttribute('cx'));
    ring.setAttribute('cy', dot.getAttribute('cy'));
    this.errorSvg.setAttribute('aria-label', this.errorLabel(at));
  }

  /** The time plot, its slopes and the table, from the sweep's results. */
  renderTimes(results) {
    const done = results.filter((r) => !r.skipped);
    // full attention on every core once it has a result (a browser with one core has none)
    const shown = [...MECHANISMS, ...(results.some((r) => r.mechanism === CORES) ? [CORES] : [])];
    replace(this.legend, [...shown.map((m) => h('span', {}, [h('b', { class: m, style: `background: var(${COLOURS[m]})` }), this.mechanismName(m)])),
      h('span', {}, [h('b', { style: 'background: var(--attention-muted)' }), this.t('guide')])]);
    const series = shown.map((mech) => ({ cls: mech, points: done.filter((r) => r.mechanism === mech).map((r) => [r.n, r.ms]) }));
    // slopes from N = 1024 on: the smallest sizes carry fixed costs
    const slopes = Object.fromEntries(shown.map((mech) => [mech, slope(done.filter((r) => r.mechanism === mech && r.n >= 1024))]));
    const fmt = (k) => (Number.isFinite(slopes[k]) ? (Math.round(slopes[k] * 10) / 10 + 0).toFixed(1) : '\u2013'); // + 0: no "-0.0"
    setText(this.slopes, this.t('slopes', { items: shown.map((k) => this.t('slope', { name: this.mechanismName(k), slope: fmt(k) })) }));
    const maxN = Math.max(this.sweep?.maxN ?? this.constructor.quick, ...results.map((r) => r.n), FIRST_N * 2);
    const ticks = [];
    for (let n = FIRST_N; n <= maxN; n *= 4) ticks.push(n);
    const lin = series.find((sr) => sr.cls === 'window').points;
    if (lin.length > 1) { // a slope-1 guide through the window's first point
      const [x, y] = lin[0];
      series.push({ cls: 'guide', reference: true, points: [[x, y], [maxN, (y * maxN) / x]] });
    }
    replace(this.timePlot, loglogPlot({
      title: this.t('timePlot'),
      series, xTicks: ticks, xLabel: this.t('nAxis'), yFormat: millis,
      label: this.t('timeLabel', { slopes: this.slopes.textContent }),
    }));
    replace(this.table, this.resultsTable(shown.map((mech) => ({ head: this.mechanismName(mech), match: (r) => r.mechanism === mech })), {
      name: (r) => this.mechanismName(r.mechanism),
      why: (r) => this.t(r.skipped, { time: r.predictedMs === undefined ? '' : millis(r.predictedMs) }),
    }));
  }
}

defineFigure('attention-efficient', Efficient);
