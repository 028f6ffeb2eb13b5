// <attention-cost>: time and memory of attention as N grows, measured in the
// reader's own browser: the plain kernel (N x N weights) against the fused
// tiled one, SIMD against scalar. The sweep runs in a Web Worker
// (cost.worker.js) and stops itself within the time budget.
// Attributes: n="1024..65536" (largest N), d="16|32|64", budget="5..120" (seconds).
import { props } from './cost.props.js';
import { defineFigure } from '../../kit/figure-element.js';
import { h, s, setText } from '../../kit/dom.js';
import { morph, showOne } from '../../kit/keep.js';
import { choice, slider } from '../../kit/controls.js';
import { MeasuringFigure } from '../../kit/workers/measuring.js';
import { bestBuild } from '../../api/load.js';
import { rich } from '../../kit/rich.js';
import { BUILDS, CORES, KERNELS, FIRST_N } from './cost.model.js';
import { bytes, millis } from '../../kit/format.js';

// every build and kernel on one core, then the fused kernel on every core (shown once measured)
const SERIES = [...BUILDS.flatMap((build) => KERNELS.map((kernel) => ({ build, kernel, id: `${build}/${kernel}` }))),
  { build: CORES, kernel: 'fused', id: `${CORES}/fused` }];
const LIMIT = 2 ** 31;
const LARGEST = [1024, 2048, 4096, 8192, 16384, 32768, 65536]; // the choices of the largest N
const [PW, PH, PL, PB] = [300, 200, 52, 28]; // plot size, left and bottom margins


class Cost extends MeasuringFigure {
  static strings = { en: () => import('./cost.strings.en.js'), zh: () => import('./cost.strings.zh.js') };
  static worker = new URL('./cost.worker.js', import.meta.url);
  static firstN = FIRST_N;
  static quick = 2048; // the sweep that runs by itself when the figure starts: well under a second
  // the best SIMD build (relaxed or plain) where there is one, beside the scalar
  static builds() { return bestBuild() === 'scalar' ? { scalar: 'scalar' } : { simd: bestBuild(), scalar: 'scalar' }; }

  static props = props;

  static css = `
  .plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 12px; margin: 8px 0; }
  .plot text { font-size: 10px; fill: var(--attention-muted); }
  .plot .title { font-size: 12px; fill: var(--attention-fg); font-weight: 600; }
  .plot .grid { stroke: var(--attention-border); stroke-width: 0.5; }
  .plot .limit { stroke: var(--attention-negative); stroke-dasharray: 4 3; }
  .plot polyline { fill: none; stroke-width: 2; }
  .fused { stroke: var(--attention-head-1); fill: var(--attention-head-1); color: var(--attention-head-1); }
  .plain { stroke: var(--attention-positive); fill: var(--attention-positive); color: var(--attention-positive); }
  polyline.scalar { stroke-dasharray: 5 3; }
  polyline.cores { stroke-dasharray: 1 3; stroke-linecap: round; stroke-width: 3; }
  .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.88em; }
  .legend svg { display: inline-block; vertical-align: middle; }
  .status { font-weight: 600; min-height: 1.4em; }
  table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.86em; width: 100%; }
  th, td { padding: 2px 6px; text-align: right; border-bottom: 1px solid var(--attention-border); }
  th:first-child, td:first-child { text-align: left; }
  .wrap { overflow-x: auto; container-type: inline-size; }
  @container (max-width: 420px) { table { font-size: 0.8em; } th, td { padding: 2px 3px; } } /* five columns on a phone */
  td.skip { color: var(--attention-muted); font-style: italic; }
  th span, td span { white-space: nowrap; } /* a narrow cell breaks between words and numbers, not inside them */`;

  build() {
    this.nSlider = slider({
      label: this.t('largestN'), values: LARGEST, value: this.state.n, prop: 'n', format: String,
      oninput: (n) => this.set({ n }),
    });
    this.dChoice = choice({ label: 'd', value: this.state.d, prop: 'd', options: ['16', '32', '64'].map((v) => ({ value: v, label: v })),
      onchange: (d) => this.set({ d }) });
    this.button = this.measureButton();
    this.status = h('p', { class: 'status', 'aria-live': 'polite' });
    // each d's legend, plots and table (part()), the one shown and the others kept (showOne): a d chosen again is shown as it was laid out
    this.parts = new Map();
    this.partsBox = h('div');
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.nSlider.el, this.dChoice.el, this.button]),
      this.status,
      this.partsBox,
      h('p', { class: 'note' }, rich(this.t('note'))),
    ]);
  }

  syncControls() {
    this.nSlider?.set(this.state.n);
    this.dChoice?.set(this.state.d);
  }

  /**
   * The kernel's and the build's names of a series (or a result) in the
   * figure's language; on every core, the best build's and the count.
   */
  names({ kernel, build }) {
    if (build !== CORES) return { kernel: this.t(kernel), build: this.t(build) };
    const on = this.results.find((r) => r.build === CORES && r.cores);
    return { kernel: this.t(kernel), build: this.t('onCores', { build: this.t(this.sweep?.simd === false ? 'scalar' : 'simd'), cores: on?.cores ?? '' }) };
  }

  /** The series to draw: on every core only once it has a result (a browser with one core has none). */
  shownSeries(results) {
    return SERIES.filter((sr) => sr.build !== CORES || results.some((r) => r.build === CORES));
  }

  // The timings depend on d: each d has its sweep (a change of d shows that
  // d's, measuring it first if need be), and the words say which d.
  sweepKey() { return this.state.d; }
  sweepMessage() { return { d: Number(this.state.d), budgetMs: this.state.budget * 1000 }; }
  statusArgs() { return { d: this.state.d }; }

  /** The status line's words for a result that just arrived. */
  progress(r) {
    return ['measuringLast', { n: r.n, ...this.names(r) }];
  }

  statusWords() {
    return super.statusWords() + (this.sweep?.phase === 'done' && this.sweep.simd === false ? this.t('scalarOnly') : '');
  }

  render() {
    this.ensureSweep();
    this.showButton();
    setText(this.status, this.statusWords());
    const results = this.results;
    const part = this.part(this.state.d);
    showOne(this.partsBox, part.el);
    // a change of N only changes the button: plots and table follow the results
    if (part.drawn?.results !== results || part.drawn.count !== results.length) {
      part.drawn = { results, count: results.length };
      const done = results.filter((r) => !r.skipped);
      const maxN = Math.max(this.sweep?.maxN ?? FIRST_N, ...results.map((r) => r.n));
      const series = this.shownSeries(results);
      const swatch = ({ build, kernel }) => s('svg', { width: 26, height: 10, 'aria-hidden': 'true' },
        [s('polyline', { class: `${kernel} ${build}`, points: '1,5 25,5' })]);
      morph(part.legend, series.map((sr) => h('span', {}, [swatch(sr), ` ${this.t('series', this.names(sr))}`])));
      morph(part.plots, [
        this.plot(this.t('timePlot'), done, 'ms', millis, 10, null, maxN),
        this.plot(this.t('memoryPlot'), done, 'bytes', bytes, 16, LIMIT, maxN),
      ]);
      morph(part.table, this.resultsTable(series.map((sr) => ({
        head: [h('span', {}, this.names(sr).kernel), ' ', h('span', {}, this.names(sr).build)],
        match: (r) => r.build === sr.build && r.kernel === sr.kernel,
      })), {
        name: (r) => this.t('series', this.names(r)),
        why: (r) => this.t(r.skipped, { gib: r.gib, time: r.predictedMs === undefined ? '' : millis(r.predictedMs) }),
      }));
      const at = (id) => done.filter((r) => `${r.build}/${r.kernel}` === id).at(-1);
      const [f, p] = [at('simd/fused') ?? at('scalar/fused'), at('simd/plain') ?? at('scalar/plain')];
      part.said = f && p ? this.t('summary', { d: this.state.d, fn: f.n, fms: millis(f.ms), fbytes: bytes(f.bytes), pn: p.n, pms: millis(p.ms), pbytes: bytes(p.bytes) }) : '';
    }
    if (part.said) this.announce(part.said);
  }

  /** d's legend, plots and table, made when d is first shown. */
  part(d) {
    if (!this.parts.has(d)) {
      const [legend, plots, table] = [h('div', { class: 'legend' }), h('div', { class: 'plots' }), h('div', { class: 'wrap' })];
      this.parts.set(d, { el: h('div', {}, [legend, plots, table]), legend, plots, table, drawn: null, said: '' });
    }
    return this.parts.get(d);
  }

  // A log-log plot of rows[key] against N; gridlines at powers of `base`.
  // (Only positive values have a place on a log axis.)
  plot(title, all, key, fmt, base, limit, maxN) {
    const rows = all.filter((r) => r[key] > 0);
    const values = rows.map((r) => r[key]).concat(limit ?? []);
    const [lo, hi] = values.length ? [Math.min(...values), Math.max(...values)] : [1, base];
    const logB = (v) => Math.log(v) / Math.log(base);
    const [y0, y1] = [Math.floor(logB(lo)), Math.ceil(logB(hi)) + (hi === lo ? 1 : 0)];
    const [x0, x1] = [Math.log2(FIRST_N), Math.log2(Math.max(maxN, FIRST_N * 2))];
    const X = (n) => PL + ((Math.log2(n) - x0) / (x1 - x0)) * (PW - PL - 8);
    const Y = (v) => 18 + (1 - (logB(v) - y0) / (y1 - y0)) * (PH - PB - 18);
    const kids = [s('text', { class: 'title', x: PL, y: 11 }, title)];
    for (let e = y0; e <= y1; e++) {
      kids.push(s('line', { class: 'grid', x1: PL, x2: PW - 8, y1: Y(base ** e), y2: Y(base ** e) }),
        s('text', { x: PL - 4, y: Y(base ** e) + 3, 'text-anchor': 'end' }, fmt(base ** e)));
    }
    for (let l = x0; l <= x1; l += 2) {
      kids.push(s('text', { x: X(2 ** l), y: PH - PB + 14, 'text-anchor': 'middle' }, String(2 ** l)));
    }
    kids.push(s('text', { x: (PL + PW) / 2, y: PH - 2, 'text-anchor': 'middle' }, this.t('nAxis')));
    if (limit) kids.push(s('line', { class: 'limit', x1: PL, x2: PW - 8, y1: Y(limit), y2: Y(limit) }), s('text', { x: PW - 10, y: Y(limit) - 4, 'text-anchor': 'end' }, this.t('wasmLimit')));
    for (const sr of SERIES) {
      const pts = rows.filter((r) => r.build === sr.build && r.kernel === sr.kernel);
      if (!pts.length) continue;
      kids.push(s('polyline', { class: `${sr.kernel} ${sr.build}`, points: pts.map((r) => `${X(r.n)},${Y(r[key])}`).join(' ') }));
      kids.push(...pts.map((r) => s('circle', { class: sr.kernel, cx: X(r.n), cy: Y(r[key]), r: sr.build === 'simd' ? 3 : 2.2 })));
    }
    return s('svg', { class: 'plot', viewBox: `0 0 ${PW} ${PH}`, width: PW, role: 'img', 'aria-label': this.t('plotLabel', { title }) }, kids);
  }
}

defineFigure('attention-cost', Cost);
