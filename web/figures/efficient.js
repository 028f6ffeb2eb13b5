// <attention-efficient>: the summary post's "recent advances" side by side.
// Full attention, a sliding window with global tokens (Longformer) and
// Performer's random features: each one's weights on a small example, the
// Performer's error against its number of features, and time and memory of
// all three as N grows, measured in a Web Worker (efficient.worker.js).
// Attributes: window="0..12", global="0,5" (global token positions),
// features="4..1024", n="2048..65536" (largest N of the sweep), budget="5..120" (s).
import { defineFigure } from './figure-element.js';
import { h, replace, setText } from './dom.js';
import { slider } from './controls.js';
import { matrixView } from './matrix.view.js';
import { MeasuringFigure } from './measuring.js';
import { rich } from './rich.js';
import { bytes, millis, pct } from './format.js';
import { loglogPlot } from './loglog.js';
import strings from './efficient.strings.js';
import {
  example, featureErrors, parseGlobal, slope, FEATURE_COUNTS, FIRST_N, MECHANISMS, N_TOKENS, SWEEP,
} from './efficient.model.js';

const QUICK = 4096; // the sweep that runs by itself when the figure starts (three sizes from N = 1024 for the slopes)

class Efficient extends MeasuringFigure {
  static strings = strings;

  static props = {
    window: { type: 'number', default: 3, min: 0, max: 12 },
    global: { type: 'string', default: '0' },
    features: { type: 'number', default: 64, min: 4, max: 1024 },
    n: { type: 'number', default: 16384, min: 2048, max: 65536 },
    budget: { type: 'number', default: 20, min: 5, max: 120 },
  };

  static css = `
  .mats { display: flex; flex-wrap: wrap; gap: 14px 18px; align-items: flex-start; }
  .mats figure { margin: 0; }
  .pattern { width: 200px; }
  .pattern .sub { margin: 0 0 4px; font-size: 0.92em; font-weight: 600; }
  .pattern p { margin: 4px 0 0; font-size: 0.84em; color: var(--attention-muted); }
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
  .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.88em; }
  .legend b { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
  .status { font-weight: 600; min-height: 1.4em; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.86em; width: 100%; }
  th, td { padding: 2px 6px; text-align: right; border-bottom: 1px solid var(--attention-border); }
  th:first-child, td:first-child { text-align: left; }
  .wrap { overflow-x: auto; }
  td.skip { color: var(--attention-muted); font-style: italic; }
  td span { white-space: nowrap; } /* a narrow cell breaks between time and memory, not inside them */`;

  build() {
    this.results ??= []; // a rebuild in another language keeps what was measured
    this.windowSlider = slider({ label: this.t('windowW'), min: 0, max: 12, step: 1, value: this.state.window, format: (v) => String(Math.round(v)),
      oninput: (v) => this.set({ window: Math.round(v) }) });
    this.featureSlider = slider({ label: this.t('featuresM'), min: 4, max: 1024, log: true, value: this.state.features,
      format: (v) => String(2 ** Math.round(Math.log2(v))), oninput: (v) => this.set({ features: 2 ** Math.round(Math.log2(v)) }) });
    const view = (name, onpick) => matrixView({ t: this.t, name, cell: 6, onpick });
    this.views = {
      exact: view(this.t('matFull')),
      windowed: view(this.t('matWindow'), (i) => this.toggleGlobal(i)),
      performer: view(this.t('matPerformer')),
    };
    this.captions = { exact: h('p'), windowed: h('p'), performer: h('p') };
    const panel = (key, title) => h('div', { class: 'pattern' }, [h('div', { class: 'sub' }, title), this.views[key].el, this.captions[key]]);
    this.nSlider = slider({ label: this.t('largestN'), min: 2048, max: 65536, log: true, value: this.state.n,
      format: (v) => String(2 ** Math.round(Math.log2(v))), oninput: (v) => this.set({ n: 2 ** Math.round(Math.log2(v)) }) });
    this.button = h('button', { type: 'button', onclick: () => (this.worker ? this.stop([['stopped']]) : this.run(this.state.n)) });
    this.status = h('p', { class: 'status', 'aria-live': 'polite' });
    this.plots = h('div', { class: 'plots' });
    this.slopes = h('p', { class: 'note' });
    this.table = h('div', { class: 'wrap' });
    this.errors = featureErrors(this.attn);
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.windowSlider.el, this.featureSlider.el]),
      h('div', { class: 'mats' }, [panel('exact', this.t('panelFull')),
        panel('windowed', this.t('panelWindow')), panel('performer', this.t('panelPerformer'))]),
      h('p', { class: 'note' }, this.t('weightsNote', { n: N_TOKENS })),
      h('div', { class: 'controls' }, [this.nSlider.el, this.button]),
      this.status,
      h('div', { class: 'legend' }, [...MECHANISMS.map((m) => h('span', {}, [h('b', { class: m, style: `background: var(${m === 'full' ? '--attention-positive' : m === 'window' ? '--attention-head-1' : '--attention-head-3'})` }), this.mechanismName(m)])),
        h('span', {}, [h('b', { style: 'background: var(--attention-muted)' }), this.t('guide')])]),
      this.plots,
      this.slopes,
      this.table,
      h('p', { class: 'note' }, rich(this.t('note'))),
    ]);
  }

  toggleGlobal(i) {
    const g = new Set(parseGlobal(this.state.global));
    if (g.has(i)) g.delete(i); else g.add(i);
    this.set({ global: [...g].sort((a, b) => a - b).join(',') });
  }

  syncControls() {
    this.windowSlider?.set(this.state.window);
    this.featureSlider?.set(this.state.features);
    this.nSlider?.set(this.state.n);
  }

  /** A mechanism's name in the sweep (its window and feature count are the sweep's). */
  mechanismName(mechanism) {
    return this.t(mechanism, { w: SWEEP.window, m: SWEEP.features });
  }

  run(maxN) {
    this.measure('efficient.worker.js', maxN, { budgetMs: this.state.budget * 1000 }, [['measuring', { n: maxN }]]);
  }

  receive(msg) {
    if (msg.type === 'result') {
      this.results.push(msg);
      this.statusText = [['measuringLast', { n: msg.n, name: this.mechanismName(msg.mechanism) }]];
    } else if (msg.type === 'done') {
      const took = millis(performance.now() - this.started);
      this.stop([this.maxN < this.state.n ? ['quickLook', { n: this.maxN, took }] : ['done', { took }]]);
    } else if (msg.type === 'error') this.stop([['failed', { message: msg.message }]]);
    this.invalidate();
  }

  render() {
    if (!this.worker && !this.results.length && !this.statusText) return this.run(Math.min(QUICK, this.state.n));
    const global = parseGlobal(this.state.global);
    const m = Math.round(this.state.features);
    const ex = example(this.attn, { window: Math.round(this.state.window), global, features: m });
    // one colour scale for the three: the exact weights' largest
    const max = Math.max(...ex.exact.data);
    this.views.exact.update(ex.exact, { max });
    this.views.windowed.update(ex.windowed, { max });
    this.views.performer.update(ex.performer, { max });
    setText(this.captions.exact, this.t('captionFull'));
    this.captions.windowed.textContent = this.t('captionWindow', {
      kept: pct(ex.kept), global: global.length ? global.join(', ') : this.t('noGlobal'), gap: ex.windowGap === 0 ? '0' : ex.windowGap.toExponential(0),
    });
    setText(this.captions.performer, this.t('captionPerformer', { m, misplaced: pct(ex.misplacedPerformer) }));
    setText(this.button, this.worker ? this.t('stop') : this.t('measure', { n: this.state.n }));
    setText(this.status, this.statusWords());
    this.renderPlots(m);
    this.renderTable();
    this.announce(this.t('summary', { w: Math.round(this.state.window), kept: pct(ex.kept), m, misplaced: pct(ex.misplacedPerformer) }));
  }

  renderPlots(m) {
    const done = this.results.filter((r) => !r.skipped);
    const series = MECHANISMS.map((mech) => ({ cls: mech, points: done.filter((r) => r.mechanism === mech).map((r) => [r.n, r.ms]) }));
    // slopes from N = 1024 on: the smallest sizes carry fixed costs
    const slopes = Object.fromEntries(MECHANISMS.map((mech) => [mech, slope(done.filter((r) => r.mechanism === mech && r.n >= 1024))]));
    const fmt = (k) => (Number.isFinite(slopes[k]) ? (Math.round(slopes[k] * 10) / 10 + 0).toFixed(1) : '\u2013'); // + 0: no "-0.0"
    setText(this.slopes, this.t('slopes', { items: MECHANISMS.map((k) => this.t('slope', { name: this.mechanismName(k), slope: fmt(k) })) }));
    const maxN = Math.max(this.maxN ?? QUICK, FIRST_N * 2);
    const ticks = [];
    for (let n = FIRST_N; n <= maxN; n *= 4) ticks.push(n);
    const lin = series.find((sr) => sr.cls === 'window').points;
    if (lin.length > 1) { // a slope-1 guide through the window's first point
      const [x, y] = lin[0];
      series.push({ cls: 'guide', reference: true, points: [[x, y], [maxN, (y * maxN) / x]] });
    }
    const at = this.errors.find((r) => r.m === m) ?? this.errors.at(-1);
    replace(this.plots, [
      loglogPlot({
        title: this.t('timePlot'),
        series, xTicks: ticks, xLabel: this.t('nAxis'), yFormat: millis,
        label: this.t('timeLabel', { slopes: this.slopes.textContent }),
      }),
      loglogPlot({
        title: this.t('errorPlot'),
        series: [{ cls: 'linear', points: this.errors.map((r) => [r.m, r.error]) }],
        xTicks: FEATURE_COUNTS.filter((k, i) => i % 2 === 0), xLabel: this.t('mAxis'), yFormat: pct, base: 2,
        highlight: [at.m, at.error],
        label: this.t('errorLabel', { first: pct(this.errors[0].error), m0: this.errors[0].m, last: pct(this.errors.at(-1).error), m1: this.errors.at(-1).m }),
      }),
    ]);
  }

  renderTable() {
    const ns = [...new Set(this.results.map((r) => r.n))];
    const cell = (n, mech) => {
      const r = this.results.find((x) => x.n === n && x.mechanism === mech);
      if (!r) return h('td', {}, '');
      return r.skipped ? h('td', { class: 'skip', title: this.t(r.skipped, { time: r.predictedMs === undefined ? '' : millis(r.predictedMs) }) }, this.t('skipped')) : h('td', {}, [h('span', {}, millis(r.ms)), ' \u00b7 ', h('span', {}, bytes(r.bytes))]);
    };
    replace(this.table, h('table', {}, [
      h('caption', { class: 'sr-only' }, this.t('tableCaption')),
      h('thead', {}, h('tr', {}, [h('th', {}, 'N'), ...MECHANISMS.map((mech) => h('th', {}, this.mechanismName(mech)))])),
      h('tbody', {}, ns.map((n) => h('tr', {}, [h('td', {}, String(n)), ...MECHANISMS.map((mech) => cell(n, mech))]))),
    ]));
  }
}

defineFigure('attention-efficient', Efficient);
