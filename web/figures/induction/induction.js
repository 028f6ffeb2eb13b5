// <attention-induction>: a two-layer attention-only transformer learns, in
// the reader's browser, to continue sequences that repeat a random segment.
// Training runs in a Web Worker (induction.worker.js); the page draws the
// loss on the first pass and on the repeats as it falls, every head's
// attention on one held-out sequence with its previous-token and
// prefix-matching scores, and, once training stops, what switching heads
// off does to the loss.
// Attributes: layers="1|2", steps="100..5000" (the budget), seed="0.." (whole numbers).
import { props } from './induction.props.js';
import { defineFigure } from '../../kit/figure-element.js';
import { h, s, replace, replaceFor, setAttr, setStyle, setText } from '../../kit/dom.js';
import { choice } from '../../kit/controls.js';
import { TrainingFigure } from '../../kit/workers/training.js';
import { palette, paintMatrix } from '../../kit/draw/scale-canvas.js';
import { theme } from '../../kit/draw/colors.js';
import { rich } from '../../kit/rich.js';
import { ALPHABET, DEFAULTS } from './induction.model.js';

const [PH, PL, PB, PT] = [220, 40, 30, 24]; // loss plot: height, left, bottom and top margins
const PW_MAX = 560;
const CHANCE = Math.log(DEFAULTS.vocab);
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '\u2013');
const headName = (l, hd) => `L${l + 1}H${hd + 1}`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

class Induction extends TrainingFigure {
  static strings = { en: () => import('./induction.strings.en.js'), zh: () => import('./induction.strings.zh.js') };
  static worker = new URL('./induction.worker.js', import.meta.url);

  static props = props;

  static css = `
  .status { font-variant-numeric: tabular-nums; margin: 4px 0; }
  .status b { font-weight: 600; }
  .milestone { color: var(--attention-accent); min-height: 1.4em; margin: 0 0 4px; }
  .plot { width: 100%; max-width: ${PW_MAX}px; }
  .plot text { font-size: 11px; fill: var(--attention-muted); }
  .plot .grid { stroke: var(--attention-border); stroke-width: 0.5; }
  .plot .chance { stroke: var(--attention-muted); stroke-dasharray: 4 3; }
  .plot polyline { fill: none; stroke-width: 2; }
  .plot circle { fill: currentColor; stroke: none; }
  .first { stroke: var(--attention-key); color: var(--attention-key); }
  .repeats { stroke: var(--attention-head-1); color: var(--attention-head-1); }
  .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.88em; color: var(--attention-fg); }
  .legend i { display: inline-block; width: 22px; border-top: 3px solid; vertical-align: middle; margin-right: 5px; }
  .sample { margin: 8px 0 4px; }
  .sample .pass { display: inline-block; font: 13px/1.6 ui-monospace, SFMono-Regular, Menlo, monospace; letter-spacing: 0.08em; padding: 0 2px; border-radius: 3px; }
  .sample .pass:nth-child(odd) { background: var(--attention-panel); }
  .layers { display: grid; gap: 10px; margin-top: 6px; }
  .waiting { margin: 0; padding: 14px 12px; background: var(--attention-panel); border-radius: 8px; }
  .layer { display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: flex-start; }
  .layer > .lab { flex: 0 0 100%; font-weight: 600; font-size: 0.92em; }
  .head { flex: 1 1 140px; max-width: 240px; min-width: 0; }
  .head.off canvas { opacity: 0.3; }
  .head canvas { display: block; width: 100%; aspect-ratio: 1; image-rendering: pixelated; border: 1px solid var(--attention-border); border-radius: 3px; }
  .head .map { position: relative; }
  .head .cursor { position: absolute; box-sizing: border-box; min-width: 4px; min-height: 4px; outline: 2px solid var(--attention-accent); pointer-events: none; }
  .head .cap { font-size: 0.85em; font-weight: 600; margin-bottom: 3px; }
  .score { display: grid; grid-template-columns: 1fr 2.6em; align-items: center; gap: 0 6px; font-size: 0.8em; font-variant-numeric: tabular-nums; margin-top: 3px; }
  .score .name { grid-column: 1 / -1; }
  .score .bar { height: 7px; background: var(--attention-panel); border-radius: 4px; overflow: hidden; }
  .score .bar span { display: block; height: 100%; background: var(--attention-accent); transform-origin: left; } /* scaled, not sized: a score's change is painted, not laid out */
  .head .switch { font-size: 0.85em; }
  .readout { font-size: 0.85em; color: var(--attention-muted); min-height: 1.3em; font-variant-numeric: tabular-nums; }
  .ablation { background: var(--attention-panel); border-radius: 8px; padding: 8px 10px; margin-top: 10px; font-variant-numeric: tabular-nums; }
  .ablation:empty { display: none; }`;

  build() {
    // a rebuild in another language keeps the run drawn so far
    this.curve ??= [];
    this.view ??= null;
    this.off ??= new Set();
    this.colors = null;
    this.run = h('button', { type: 'button', onclick: () => this.toggle() }, this.t('start'));
    this.resetButton = h('button', { type: 'button', onclick: () => this.reset() }, this.t('reset'));
    this.layerChoice = choice({
      label: this.t('layers'), value: this.state.layers, prop: 'layers',
      options: ['1', '2'].map((n) => ({ value: n, label: this.t('layerCount', { n: Number(n) }) })),
      onchange: (layers) => this.set({ layers }),
    });
    this.statusEl = h('p', { class: 'status' }); // not a live region: announce() speaks at a human pace
    this.milestoneEl = h('p', { class: 'milestone' });
    this.plotEl = this.plotArea();
    this.sampleEl = h('p', { class: 'sample' });
    this.readoutEl = h('p', { class: 'readout' });
    this.layersEl = h('div', { class: 'layers' });
    [this.cards, this.sample, this.waiting, this.reading] = [null, null, null, null]; // (what this.layersEl and this.sampleEl show, and the card the readout reads: renderHeads, renderWaiting)
    this.ablationEl = h('div', { class: 'ablation' });
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.run, this.resetButton, this.layerChoice.el]),
      this.statusEl, this.milestoneEl,
      h('div', { class: 'legend' }, [
        h('span', {}, [h('i', { class: 'first' }), this.t('legendFirst')]),
        h('span', {}, [h('i', { class: 'repeats' }), this.t('legendRepeats')]),
      ]),
      this.plotEl,
      h('p', { class: 'note' }, this.t('sampleNote')),
      this.sampleEl, this.readoutEl, this.layersEl, this.ablationEl,
      h('p', { class: 'note' }, rich(this.t('note', {
        vocab: DEFAULTS.vocab, context: DEFAULTS.context, width: DEFAULTS.dModel, heads: DEFAULTS.heads, lr: DEFAULTS.lr, batch: DEFAULTS.batch,
      }))),
    ]);
  }

  syncControls() {
    this.layerChoice?.set(this.state.layers);
  }

  set(patch) {
    const again = 'layers' in patch && patch.layers !== this.state.layers;
    super.set(patch);
    if (again) this.reset();
  }

  runOptions() {
    return { layers: Number(this.state.layers), steps: this.state.steps, seed: this.state.seed };
  }

  // Forget the drawn run, until the new model's first view.
  clear() {
    this.curve = [];
    this.view = null;
    this.off = new Set();
    for (const el of [this.sampleEl, this.readoutEl, this.layersEl, this.ablationEl]) if (el) replace(el);
    [this.cards, this.sample, this.waiting, this.reading] = [null, null, null, null];
  }

  receive(msg) {
    if (msg.type === 'error') return this.fail(this.t('failed', { message: msg.message }));
    this.msg = msg;
    this.curve.push(...msg.curve);
    if (msg.view) this.view = msg.view;
    this.drawProgress();
  }

  ablate(off) {
    this.post({ type: 'ablate', off });
  }

  render() {
    const { step, steps, running, done, trainingMs, rate, state, phase } = this.progress();
    setText(this.statusEl, this.error ? this.t('stopped', { error: this.error })
      : this.t('status', { step, steps, time: seconds(trainingMs), rate, state: this.t(state) }));
    const m = this.msg.milestone;
    const milestone = m ? this.t('milestone', { step: m.step, every: DEFAULTS.evalEvery, time: seconds(m.trainingMs) }) : '';
    setText(this.milestoneEl, milestone);
    this.plot();
    if (this.view) this.renderHeads(running);
    else this.renderWaiting();
    for (const el of [this.sampleEl, this.readoutEl]) if (el.hidden !== !this.view) el.hidden = !this.view; // (the sample and a map's readout come with the maps)
    const last = this.curve.at(-1);
    // while it trains, the summary is short (it is spoken every few seconds); the scores come when it stops
    this.announce(this.t('summary', {
      layers: this.t('layerCount', { n: Number(this.state.layers) }), step, steps,
      state: running ? this.t('summaryTraining') : done ? this.t('summaryDone') : this.restarted ? this.t('summaryRestarted') : state === 'idle' ? this.t('summaryIdle') : '',
      losses: last ? this.t('summaryLosses', { first: fmt(last.first), repeats: fmt(last.repeats) }) : '',
      milestone: m ? ` ${milestone}` : '',
      scores: running ? '' : this.scoreText(),
    }).replace(/\s+/g, ' ').trim(), { phase: `${phase}${m ? ', induction' : ''}`, paced: running });
  }

  scoreText() {
    if (!this.view) return '';
    return this.t('scores', { items: this.view.scores.flatMap((heads, l) => heads.map((x, hd) =>
      this.t('score', { head: headName(l, hd), previous: fmt(x.previousToken), prefix: fmt(x.prefixMatching) }))) });
  }

  // The loss on the held-out set against the step, for the first pass and
  // the repeats: its axes made again only when its width, scale or budget
  // change, its curves moved in place (a message a few steps apart).
  plot() {
    // drawn at the width it is shown at, so its text stays readable on a phone
    const PW = Math.max(280, Math.min(PW_MAX, this.plotWidth || PW_MAX));
    const steps = this.msg.steps;
    const top = Math.max(4.5, ...this.curve.map((p) => Math.max(p.first, p.repeats)));
    const yMax = Math.ceil(top);
    const X = (st) => PL + (st / steps) * (PW - PL - 10);
    const Y = (v) => PT + (1 - v / yMax) * (PH - PB - PT);
    const last = this.curve.at(-1);
    replaceFor(this.plotEl, `${PW} ${yMax} ${steps}`, () => {
      const kids = [];
      for (let v = 0; v <= yMax; v++) {
        kids.push(s('line', { class: 'grid', x1: PL, x2: PW - 10, y1: Y(v), y2: Y(v) }), s('text', { x: PL - 6, y: Y(v) + 4, 'text-anchor': 'end' }, String(v)));
      }
      for (let k = 0; k <= 4; k++) {
        const st = Math.round((k * steps) / 4);
        kids.push(s('text', { x: X(st), y: PH - PB + 15, 'text-anchor': 'middle' }, String(st)));
      }
      kids.push(s('text', { x: (PL + PW) / 2, y: PH - 2, 'text-anchor': 'middle' }, this.t('stepAxis')));
      kids.push(s('text', { x: 4, y: 10 }, this.t('lossAxis')));
      kids.push(s('line', { class: 'chance', x1: PL, x2: PW - 10, y1: Y(CHANCE), y2: Y(CHANCE) }),
        s('text', { x: PW - 12, y: Y(CHANCE) + 13, 'text-anchor': 'end' }, this.t('uniform', { vocab: DEFAULTS.vocab, value: CHANCE.toFixed(2) })));
      // a curve and its latest value (all there is at step 0) per part
      this.curves = ['first', 'repeats'].map((part) => [part, s('polyline', { class: part }), s('circle', { class: part })]);
      return s('svg', { class: 'plot', viewBox: `0 0 ${PW} ${PH}`, role: 'img', 'aria-label': this.t('plotLabel') }, [...kids, ...this.curves.flatMap(([, ...els]) => els)]);
    });
    // (the same attributes whatever was drawn before: no point yet is no line and a dot of radius 0)
    for (const [part, line, dot] of this.curves) {
      setAttr(line, 'points', this.curve.map((p) => `${X(p.step).toFixed(1)},${Y(p[part]).toFixed(1)}`).join(' '));
      setAttr(dot, 'cx', last ? X(last.step) : PL);
      setAttr(dot, 'cy', last ? Y(last[part]) : Y(0));
      setAttr(dot, 'r', last ? 3 : 0);
    }
  }

  // Before the worker's first view: what will fill the heads' panel, and how (nothing once the figure failed).
  renderWaiting() {
    const key = this.error ? '' : this.worker ? 'headsLoading' : 'headsIdle';
    if (this.waiting === key) return;
    this.waiting = key;
    replace(this.layersEl, key ? h('p', { class: 'waiting' }, this.t(key)) : null);
  }

  renderHeads(running) {
    const { tokens, period, attention, scores, losses } = this.view;
    const key = theme(this.shadowRoot); // the same object while the theme stays (read before render wrote anything)
    if (!this.colors || this.colorKey !== key) [this.colors, this.colorKey] = [palette(this.shadowRoot), key];
    const sample = `${period} ${tokens.join(',')}`;
    if (this.sample !== sample) {
      this.sample = sample;
      const passes = [];
      for (let t = 0; t < tokens.length; t += period) passes.push(h('span', { class: 'pass' }, tokens.slice(t, t + period).map((id) => ALPHABET[id]).join('')));
      replace(this.sampleEl, this.t('sample', { period }), h('span', { class: 'tokens' }, passes));
    }
    const canAblate = !running && this.msg.step > 0;
    if (!canAblate && this.off.size) this.off.clear();
    // the head cards, made once for the model's shape (and for each build: a language), then filled in place
    const shape = attention.map((heads) => heads.length).join(',');
    if (this.cards?.shape !== shape) {
      [this.waiting, this.reading] = [null, null];
      this.cards = attention.map((heads, l) => heads.map((_, hd) => this.headCard(l, hd)));
      this.cards.shape = shape;
      replace(this.layersEl, this.cards.map((cards, l) => h('div', { class: 'layer', role: 'group', 'aria-label': this.t('layerGroup', { l: l + 1 }) }, [
        h('span', { class: 'lab' }, this.t('layer', { l: l + 1 })),
        ...cards.map((c) => c.el),
      ])));
    }
    attention.forEach((heads, l) => heads.forEach((W, hd) => this.fillCard(this.cards[l][hd], W, scores[l][hd], tokens, canAblate)));
    const repeatsTrained = this.curve.at(-1)?.repeats;
    setText(this.ablationEl, canAblate ? this.ablationText(losses, repeatsTrained) : this.t('ablationLater'));
  }

  // A head's card: its attention map, its two scores and its switch, to be filled by fillCard.
  headCard(l, hd) {
    const name = `${l}.${hd}`;
    const card = { name, l, hd, W: null, tokens: null };
    // a cell named in the readout: under the pointer, or by keyboard (focus, then the arrow keys), outlined meanwhile
    card.canvas = h('canvas', { role: 'img', tabindex: 0, 'aria-label': this.t('headMap', { l: l + 1, h: hd + 1 }) });
    card.cursor = h('i', { class: 'cursor', hidden: true });
    [card.at, card.last] = [null, null]; // [i, j]: the cell named, and the last one named
    const point = (at) => {
      const { W } = card;
      card.at = at && [Math.max(0, Math.min(W.rows - 1, at[0])), Math.max(0, Math.min(W.cols - 1, at[1]))];
      card.last = card.at ?? card.last;
      card.cursor.hidden = !card.at;
      if (!card.at) return;
      // (one head's cell at a time: the readout is one line)
      if (this.reading && this.reading !== card) [this.reading.at, this.reading.cursor.hidden] = [null, true];
      this.reading = card;
      this.readCell(card);
    };
    card.canvas.addEventListener('mousemove', (e) => {
      const r = card.canvas.getBoundingClientRect();
      point([Math.floor(((e.clientY - r.top) / r.height) * card.W.rows), Math.floor(((e.clientX - r.left) / r.width) * card.W.cols)]);
    });
    card.canvas.addEventListener('mouseleave', () => point(null));
    card.canvas.addEventListener('focus', () => point(card.last ?? [0, 0]));
    card.canvas.addEventListener('blur', () => point(null));
    card.canvas.addEventListener('keydown', (e) => {
      const move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
      if (!move || !card.at) return;
      e.preventDefault();
      point([card.at[0] + move[0], card.at[1] + move[1]]);
    });
    const bar = (label) => {
      const [fill, value] = [h('span'), h('span', { class: 'value' })];
      return { fill, value, el: h('div', { class: 'score' }, [h('span', { class: 'name' }, label), h('span', { class: 'bar' }, fill), value]) };
    };
    card.bars = [bar(this.t('previousToken')), bar(this.t('prefixMatching'))];
    card.input = h('input', { type: 'checkbox', role: 'switch', 'data-head': name });
    card.input.addEventListener('change', () => {
      if (card.input.checked) this.off.add(name); else this.off.delete(name);
      this.ablate([...this.off].map((k) => k.split('.').map(Number)));
    });
    card.el = h('div', { class: 'head' }, [
      h('div', { class: 'cap' }, this.t('head', { l: l + 1, h: hd + 1 })),
      h('div', { class: 'map' }, [card.canvas, card.cursor]),
      ...card.bars.map((b) => b.el),
      // each switch names its head (four "switch this head off" would be one name for four controls)
      h('label', { class: 'switch' }, [card.input, this.t('switchOff', { head: headName(l, hd) })]),
    ]);
    return card;
  }

  // The readout: the weight of `card`'s cell card.at, as its head draws it now (and its outline there).
  readCell(card) {
    const { W, tokens, l, hd, at: [i, j] } = card;
    Object.assign(card.cursor.style, { left: `${(100 * j) / W.cols}%`, top: `${(100 * i) / W.rows}%`, width: `${100 / W.cols}%`, height: `${100 / W.rows}%` });
    setText(this.readoutEl, this.t('readout', { head: headName(l, hd), i, qt: ALPHABET[tokens[i]], j, kt: ALPHABET[tokens[j]], w: fmt(W.data[i * W.cols + j]) }));
  }

  fillCard(card, W, score, tokens, canAblate) {
    Object.assign(card, { W, tokens });
    paintMatrix(card.canvas, W, this.colors, 1);
    if (card.at) this.readCell(card); // (a cell named while the model trains: its weight now)
    [score.previousToken, score.prefixMatching].forEach((v, k) => {
      setStyle(card.bars[k].fill, 'transform', `scaleX(${Math.max(0, Math.min(1, v)).toFixed(3)})`);
      setText(card.bars[k].value, fmt(v));
    });
    const off = this.off.has(card.name);
    card.el.classList.toggle('off', off);
    if (card.input.checked !== off) card.input.checked = off;
    if (card.input.disabled !== !canAblate) card.input.disabled = !canAblate;
  }

  ablationText(losses, repeatsTrained) {
    const before = this.curve[0]?.repeats;
    if (!this.off.size) return this.t('ablationNone', { now: fmt(repeatsTrained), before: fmt(before) });
    const names = this.t('headList', { names: [...this.off].map((k) => k.split('.').map(Number)).map(([l, hd]) => headName(l, hd)) });
    const back = before - repeatsTrained > 0 ? (losses.repeats - repeatsTrained) / (before - repeatsTrained) : NaN;
    return this.t('ablationOff', {
      names, loss: fmt(losses.repeats), trained: fmt(repeatsTrained), before: fmt(before),
      back: Number.isFinite(back) ? Math.round(100 * back) : '\u2013', first: fmt(losses.first),
    });
  }
}

defineFigure('attention-induction', Induction);
