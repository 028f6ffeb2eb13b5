// <attention-tiny-gpt>: a small GPT learns to write from this article's own
// text, character by character, in the reader's browser. Training runs in a
// Web Worker (tiny-gpt.worker.js); the page draws the training and held-out
// loss against a bigram model's, samples as the model learns, greedy
// decoding, temperature sampling and beam search side by side, and any
// head's attention on text the reader types.
// Attributes: steps="100..5000" (the budget) and seed="0.." (whole numbers:
// a link holds them, not the run); prompt (what the decodings continue),
// text (what the attention maps read), layer="1|2", head="1..4", at="0.."
// (the character whose attention is shown, from 1 in what the model reads;
// 0: the last).
import { props, numbers } from './tiny-gpt.props.js';
import { defineFigure } from '../../kit/figure-element.js';
import { h, s, replace, replaceFor, setAttr, setStyle, setText } from '../../kit/dom.js';
import { choice } from '../../kit/controls.js';
import { simdSupported } from '../../api/load.js';
import { TrainingFigure } from '../../kit/workers/training.js';
import { palette, paintMatrix } from '../../kit/draw/scale-canvas.js';
import { maxAbs } from '../../kit/draw/scale.js';
import { labelColor, rgbText, scaleRgb, theme } from '../../kit/draw/colors.js';
import { ALPHABET, DEFAULTS, unknownChars } from './tiny-gpt.model.js';

const [PH, PL, PB, PT] = [210, 40, 30, 24]; // loss plot: height, left, bottom and top margins
const PW_MAX = 560;
const UNIFORM = Math.log(ALPHABET.length);
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '\u2013');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const STRATEGIES = ['greedy', 'sample', 'beam']; // keys of the decodings and of their names (name, nameHow)

class TinyGpt extends TrainingFigure {
  static strings = { en: () => import('./tiny-gpt.strings.en.js'), zh: () => import('./tiny-gpt.strings.zh.js') };
  static worker = new URL('./tiny-gpt.worker.js', import.meta.url);
  // its claims are tested on the SIMD build (what Node 20 runs by default)
  static get build() { return simdSupported() ? 'simd' : 'scalar'; }

  static props = props;

  static css = `
  .status { font-variant-numeric: tabular-nums; margin: 4px 0; }
  .plot { width: 100%; max-width: ${PW_MAX}px; }
  .plot text { font-size: 11px; fill: var(--attention-muted); }
  .plot .grid { stroke: var(--attention-border); stroke-width: 0.5; }
  .plot .ref { stroke: var(--attention-muted); stroke-dasharray: 4 3; }
  .plot polyline { fill: none; stroke-width: 2; }
  .train { stroke: var(--attention-key); color: var(--attention-key); }
  .held { stroke: var(--attention-head-1); color: var(--attention-head-1); }
  .bigram { stroke: var(--attention-muted); color: var(--attention-muted); }
  .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.88em; }
  .legend i { display: inline-block; width: 22px; border-top: 3px solid; vertical-align: middle; margin-right: 5px; }
  .legend i.dash { border-top-style: dashed; }
  .sub { font-size: 0.95em; margin: 14px 0 4px; }
  /* the model's spaces kept as they are, lines broken between words (a word longer than the line, anywhere) */
  .mono { font: 13px/1.55 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: break-word; }
  .samples { margin: 0; padding: 0; list-style: none; }
  .samples li { display: grid; grid-template-columns: 5.5em minmax(0, 1fr); gap: 6px; }
  .samples .at { color: var(--attention-muted); font-size: 0.85em; font-variant-numeric: tabular-nums; }
  .write { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
  .write input, .attend input { font: inherit; padding: 3px 6px; min-width: 0; flex: 1 1 12em; max-width: 26em; }
  .decodings { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 10px; margin-top: 8px; }
  .decoding { background: var(--attention-panel); border-radius: 8px; padding: 8px 10px; min-width: 0; }
  .decoding .name { font-weight: 600; font-size: 0.9em; }
  .decoding .how, .decoding .lp { color: var(--attention-muted); font-size: 0.8em; font-variant-numeric: tabular-nums; }
  .decoding .prompt { color: var(--attention-muted); }
  .decodings > .note { grid-column: 1 / -1; }
  .attend { display: grid; gap: 6px; }
  /* each character is a 24 px target at least (WCAG 2.5.8), so a finger can pick one */
  .chars { display: flex; flex-wrap: wrap; }
  .chars button { font: 14px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; border-bottom: 2px solid transparent; padding: 0; min-width: 24px; min-height: 24px; display: inline-flex; margin: 0; background: none; color: var(--attention-fg); cursor: pointer; }
  /* the weight's colour is on a span inside: a span restyles several times quicker than a button */
  .chars span { flex: 1; padding: 1px; text-align: center; border-radius: 2px; }
  .chars button[aria-checked=true] { border-bottom-color: var(--attention-accent); font-weight: 700; }
  @media print { .chars button { display: inline-flex !important; } } /* (kept on paper: the text in its weights' colours is data) */
  .heads { display: flex; flex-wrap: wrap; gap: 8px 16px; }
  .matrix { width: 100%; max-width: 220px; aspect-ratio: 1; image-rendering: pixelated; border: 1px solid var(--attention-border); border-radius: 3px; }
  .readout { font-size: 0.85em; color: var(--attention-muted); min-height: 1.3em; font-variant-numeric: tabular-nums; }
  .note:empty { display: none; }`;

  build() {
    // a rebuild in another language keeps the run drawn so far
    this.curve ??= [];
    this.samples ??= [];
    this.bigram ??= null;
    this.written ??= null;
    this.attended ??= null;
    this.drawn = {}; // what each part was last drawn from (render redraws a part only when that changed)
    this.run = h('button', { type: 'button', onclick: () => this.toggle() }, this.t('start'));
    this.resetButton = h('button', { type: 'button', onclick: () => this.reset() }, this.t('reset'));
    this.statusEl = h('p', { class: 'status' }); // not a live region: announce() speaks at a human pace
    this.plotEl = this.plotArea();
    this.samplesEl = h('ul', { class: 'samples mono' });
    // a text box shows the state when it changes elsewhere (syncControls), never under the reader's typing
    this.promptInput = h('input', { type: 'text', value: this.state.prompt, 'aria-label': this.t('promptLabel'), maxlength: 60, 'data-prop': 'prompt' });
    this.promptInput.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.askModel({ prompt: this.promptInput.value }); });
    this.writeButton = h('button', { type: 'button', onclick: () => this.askModel({ prompt: this.promptInput.value }) }, this.t('write'));
    this.promptNote = h('p', { class: 'note' });
    this.decodingsEl = h('div', { class: 'decodings' });
    this.textInput = h('input', { type: 'text', value: this.state.text, 'aria-label': this.t('textLabel'), maxlength: 200, 'data-prop': 'text' });
    this.textInput.addEventListener('input', () => this.askModel({ text: this.textInput.value, at: 0 }));
    [this.promptShown, this.textShown] = [this.state.prompt, this.state.text];
    const options = (n) => numbers(n).map((v) => ({ value: v, label: v }));
    this.layerChoice = choice({ label: this.t('layer'), value: this.state.layer, prop: 'layer', options: options(DEFAULTS.layers), onchange: (layer) => this.askModel({ layer }) });
    this.headChoice = choice({ label: this.t('head'), value: this.state.head, prop: 'head', options: options(DEFAULTS.heads), onchange: (head) => this.askModel({ head }) });
    this.textNote = h('p', { class: 'note' });
    // one tab stop: arrow keys, Home and End move the query from character to character
    this.charsEl = h('div', { class: 'chars', role: 'radiogroup', 'aria-label': this.t('charsLabel'), 'data-prop': 'at' });
    this.charsEl.addEventListener('keydown', (e) => this.charKey(e));
    this.matrixEl = h('canvas', { class: 'matrix', role: 'img', 'aria-label': this.t('matrixEmpty') });
    this.readoutEl = h('p', { class: 'readout' });
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'controls' }, [this.run, this.resetButton]),
      this.statusEl,
      h('div', { class: 'legend' }, [
        h('span', {}, [h('i', { class: 'train' }), this.t('legendTrain')]),
        h('span', {}, [h('i', { class: 'held' }), this.t('legendHeld')]),
        h('span', {}, [h('i', { class: 'bigram dash' }), this.t('legendBigram')]),
      ]),
      this.plotEl,
      h('div', { class: 'sub' }, this.t('samplesHeading')),
      this.samplesEl,
      h('div', { class: 'sub' }, this.t('decodeHeading')),
      h('div', { class: 'write' }, [h('label', {}, [`${this.t('prompt')} `, this.promptInput]), this.writeButton]),
      this.promptNote,
      this.decodingsEl,
      h('div', { class: 'sub' }, this.t('attendHeading')),
      h('div', { class: 'attend' }, [
        h('label', {}, [`${this.t('typeText')} `, this.textInput]),
        this.textNote,
        h('div', { class: 'heads' }, [this.layerChoice.el, this.headChoice.el]),
        this.charsEl, this.readoutEl, this.matrixEl,
      ]),
      h('p', { class: 'note' }, this.t('note', {
        chars: ALPHABET.length, context: DEFAULTS.context, width: DEFAULTS.dModel, layers: DEFAULTS.layers, heads: DEFAULTS.heads,
        lr: DEFAULTS.lr, batch: DEFAULTS.batch, train: Math.round(100 * (1 - DEFAULTS.heldOut)), held: Math.round(100 * DEFAULTS.heldOut),
      })),
    ]);
  }

  syncControls() {
    this.layerChoice.set(this.state.layer);
    this.headChoice.set(this.state.head);
    if (this.state.prompt !== this.promptShown) this.promptInput.value = this.promptShown = this.state.prompt;
    if (this.state.text !== this.textShown) this.textInput.value = this.textShown = this.state.text;
  }

  set(patch) {
    super.set(patch);
    this.ask(Object.keys(patch));
  }

  attributeChangedCallback(name, old, value) {
    super.attributeChangedCallback(name, old, value);
    this.ask([name]);
  }

  // The reader's prompt, text, layer or head: set, and the model (its worker started if need be) answers.
  askModel(patch) {
    this.set(patch);
    this.wake();
  }

  // A new prompt is written, a new text read (by a model woken for them, if none runs yet).
  ask(names) {
    if (!this.worker && this.attn && this.isConnected && this.asksModel() && this.wake()) return; // (wake writes and reads)
    if (names.includes('prompt')) this.write();
    if (names.includes('text')) this.attend();
  }

  runOptions() {
    return { steps: this.state.steps, seed: this.state.seed };
  }

  clear() {
    this.curve = [];
    this.samples = [];
    this.written = null;
    this.attended = null;
  }

  reset() {
    super.reset();
    this.write();
    this.attend();
  }

  // Whether the state shows the model's answers (a prompt, a text, a layer, a
  // head or a character other than the defaults): then the model loads as the
  // figure comes on the page, or when an attribute or link sets one.
  asksModel() {
    return ['prompt', 'text', 'layer', 'head', 'at'].some((k) => this.state[k] !== this.constructor.props[k].default);
  }

  onPage() {
    super.onPage();
    if (this.asksModel() && !this.worker) this.wake();
  }

  // The first question to the model starts its worker (its untrained answers, until Start; what it writes once paused).
  wake(options = {}) {
    const fresh = !this.worker;
    if (!super.wake(options)) return false;
    if (fresh && !options.start) this.write();
    if (fresh) this.attend();
    return true;
  }

  write() {
    if (!this.msg.running) this.post({ type: 'write', prompt: this.state.prompt });
  }

  attend() {
    this.post({ type: 'attend', text: this.state.text });
  }

  receive(msg) {
    if (msg.type === 'error') return this.fail(this.t('failed', { message: msg.message }));
    if (msg.type === 'written' || msg.type === 'attended') { // (during a run: drawn with its progress)
      this[msg.type] = msg;
      return this.drawProgress();
    }
    const wasRunning = this.msg.running;
    this.msg = msg;
    this.bigram = msg.bigram;
    this.curve.push(...msg.curve);
    this.samples.push(...msg.samples);
    if (wasRunning && !msg.running) { this.write(); this.attend(); } // paused or done: what it writes now
    else if (msg.running && msg.step % 50 < 3) this.attend();
    this.drawProgress();
  }

  // Whether `key` (values and objects) differs from what `part` was last drawn from; remembers it.
  changed(part, ...key) {
    const was = this.drawn[part];
    if (was && key.every((x, i) => Object.is(x, was[i]))) return false;
    this.drawn[part] = key;
    return true;
  }

  render() {
    const { step, steps, running, done, trainingMs, rate, state, phase } = this.progress();
    this.writeButton.disabled = running || !!this.error;
    const last = this.curve.at(-1);
    setText(this.statusEl, this.error ? this.t('stopped', { error: this.error }) : this.t('status', {
      step, steps, time: seconds(trainingMs), rate, state: this.t(state),
      losses: last && this.bigram ? this.t('statusLosses', { heldOut: fmt(last.heldOut), bigram: fmt(this.bigram.heldOut) }) : '',
    }));
    const width = Math.max(280, Math.min(PW_MAX, this.plotWidth || PW_MAX));
    if (this.changed('plot', this.curve, this.curve.length, steps, this.bigram, width)) this.plot(width);
    if (this.changed('samples', this.samples, this.samples.length)) {
      replace(this.samplesEl, this.samples.slice(-6).map((x) => h('li', {}, [h('span', { class: 'at' }, this.t('sampleStep', { step: x.step })), h('span', {}, DEFAULTS.prompt + x.text)])));
    }
    this.renderDecodings(running);
    this.renderAttention();
    this.announce(this.t('summary', {
      step, steps, state: running ? this.t('summaryTraining') : done ? this.t('summaryDone') : this.restarted ? this.t('summaryRestarted') : state === 'idle' ? this.t('summaryIdle') : '',
      losses: last ? this.t('summaryLosses', { train: fmt(last.train), heldOut: fmt(last.heldOut), bigram: fmt(this.bigram?.heldOut) }) : '',
      loading: this.msg.loading ? this.t('summaryLoading') : '',
    }), { phase, paced: running });
  }

  // The losses against the step: its axes made again only when its width,
  // scale, budget or bigram line change, its curves moved in place (a run
  // reports every few steps: a plot made anew each time cost the page a
  // restyle and layout of its every line and label).
  plot(PW) {
    const steps = this.msg.steps;
    const yMax = Math.ceil(Math.max(4, ...this.curve.map((p) => Math.max(p.train, p.heldOut))));
    const X = (st) => PL + (st / steps) * (PW - PL - 10);
    const Y = (v) => PT + (1 - v / yMax) * (PH - PB - PT);
    const b = this.bigram?.heldOut;
    replaceFor(this.plotEl, `${PW} ${yMax} ${steps} ${b}`, () => {
      const kids = [];
      for (let v = 0; v <= yMax; v++) kids.push(s('line', { class: 'grid', x1: PL, x2: PW - 10, y1: Y(v), y2: Y(v) }), s('text', { x: PL - 6, y: Y(v) + 4, 'text-anchor': 'end' }, String(v)));
      for (let k = 0; k <= 4; k++) {
        const st = Math.round((k * steps) / 4);
        kids.push(s('text', { x: X(st), y: PH - PB + 15, 'text-anchor': 'middle' }, String(st)));
      }
      kids.push(s('text', { x: (PL + PW) / 2, y: PH - 2, 'text-anchor': 'middle' }, this.t('stepAxis')), s('text', { x: 4, y: 10 }, this.t('lossAxis')));
      kids.push(s('line', { class: 'ref', x1: PL, x2: PW - 10, y1: Y(UNIFORM), y2: Y(UNIFORM) }),
        s('text', { x: PW - 12, y: Y(UNIFORM) - 4, 'text-anchor': 'end' }, this.t('uniform', { n: ALPHABET.length, value: UNIFORM.toFixed(2) })));
      if (b !== undefined) {
        kids.push(s('line', { class: 'ref bigram', x1: PL, x2: PW - 10, y1: Y(b), y2: Y(b) }), s('text', { x: PW - 12, y: Y(b) - 4, 'text-anchor': 'end' }, this.t('bigramLine', { value: fmt(b) })));
      }
      this.curves = [['train', 'train'], ['heldOut', 'held']].map(([part, cls]) => [part, s('polyline', { class: cls })]);
      return s('svg', { class: 'plot', viewBox: `0 0 ${PW} ${PH}`, role: 'img', 'aria-label': this.t('plotLabel') }, [...kids, ...this.curves.map(([, line]) => line)]);
    });
    // (no point yet: a line of no points, drawn as nothing)
    for (const [part, line] of this.curves) setAttr(line, 'points', this.curve.map((p) => `${X(p.step).toFixed(1)},${Y(p[part]).toFixed(1)}`).join(' '));
  }

  renderDecodings(running) {
    const w = this.written;
    // until the model has written: what will fill this, and how (loading only while it loads)
    const waiting = !this.worker ? 'writeIdle' : this.msg.loading ? 'writing' : running ? 'decodeTraining' : 'decodeWriting';
    if (!this.changed('decodings', w, running, waiting)) return;
    const dropped = w ? unknownChars(w.typed) : [];
    // what the model could not read, and so did not: said, never silently replaced
    setText(this.promptNote, !w ? '' : !w.decodings.read ? this.t('promptNone', { chars: dropped.join(' ') })
      : dropped.length ? this.t('promptDropped', { chars: dropped.join(' ') }) : '');
    if (!w) return replace(this.decodingsEl, h('p', { class: 'note' }, this.t(waiting)));
    const knobs = { t: DEFAULTS.temperature, w: DEFAULTS.beam };
    replace(this.decodingsEl, STRATEGIES.map((key) => {
      const d = w.decodings[key];
      return h('div', { class: 'decoding' }, [
        h('div', { class: 'name' }, this.t(key, knobs)), h('div', { class: 'how' }, this.t(`${key}How`, knobs)),
        h('p', { class: 'mono' }, [h('span', { class: 'prompt' }, w.decodings.prompt), d.text]),
        h('div', { class: 'lp' }, this.t('logProb', { lp: d.logProb.toFixed(1), per: (d.logProb / d.text.length).toFixed(2) })),
      ]);
    }));
    if (running) this.decodingsEl.append(h('p', { class: 'note' }, this.t('writtenAt', { step: w.step })));
  }

  // the query: the character `at` (from 1) of the n the model reads, else the last
  query(n) {
    const at = this.state.at;
    return at >= 1 && at <= n ? at - 1 : n - 1;
  }

  charKey(e) {
    const n = this.attended?.view?.chars.length;
    if (!n) return;
    const q = this.query(n);
    const to = { ArrowLeft: q - 1, ArrowUp: q - 1, ArrowRight: q + 1, ArrowDown: q + 1, Home: 0, End: n - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const i = Math.max(0, Math.min(n - 1, to));
    this.set({ at: i + 1 });
    this.charsEl.children[i]?.focus();
  }

  renderAttention() {
    const a = this.attended;
    const v = a?.view;
    const waiting = !this.worker ? 'attendIdle' : this.msg.loading ? 'attendLoading' : 'attendReading';
    if (this.changed('textNote', a, a ? '' : waiting)) {
      const dropped = a ? unknownChars(a.text) : [];
      const notes = [];
      if (!a) notes.push(this.t(waiting)); // until the model has read: what will fill this, and how
      if (a && !v) notes.push(this.t(a.text ? 'textNone' : 'textEmpty'));
      if (dropped.length) notes.push(this.t('textDropped', { chars: dropped.join(' ') }));
      if (v && v.read > v.chars.length) notes.push(this.t('textLast', { n: v.chars.length }));
      setText(this.textNote, notes.join(' '));
    }
    if (this.matrixEl.hidden !== !v) this.matrixEl.hidden = !v;
    if (!v) {
      if (this.changed('chars', null)) replace(this.charsEl);
      setText(this.readoutEl, '');
      return;
    }
    const layer = Number(this.state.layer) - 1;
    const head = Number(this.state.head) - 1;
    const W = v.attention[layer][head];
    const n = v.chars.length;
    const q = this.query(n);
    const row = W.data.subarray(q * n, q * n + n);
    if (this.changed('chars', v.chars)) {
      replace(this.charsEl, [...v.chars].map((c, i) => {
        const b = h('button', { type: 'button', role: 'radio', 'data-key': `char-${i}`, onclick: () => this.set({ at: i + 1 }) }, h('span', {}, c === ' ' ? '\u00a0' : c));
        b.addEventListener('mouseenter', () => this.set({ at: i + 1 }));
        return b;
      }));
      this.drawn.row = null; // new buttons: colour them
    }
    const key = theme(this.shadowRoot); // the same object while the theme stays (read before render wrote anything)
    if (this.changed('row', a, layer, head, q, key)) {
      const top1 = maxAbs(row); // the project's scale, relative to the largest weight in view
      [...this.charsEl.children].forEach((b, i) => {
        // resolved colours (the theme is part of `key`): a CSS mix of var()s costs a restyle of its own per character
        setStyle(b.firstChild, 'background', rgbText(scaleRgb(this.shadowRoot, row[i], top1)));
        setStyle(b.firstChild, 'color', labelColor(this.shadowRoot, row[i], top1));
        setAttr(b, 'aria-checked', i === q);
        setAttr(b, 'tabindex', i === q ? 0 : -1);
        setAttr(b, 'aria-label', this.t('char', { c: v.chars[i] === ' ' ? this.t('space') : v.chars[i], w: fmt(row[i]) }));
      });
      const top = [...row.keys()].sort((x, y) => row[y] - row[x]).slice(0, 3).filter((j) => row[j] > 0.05);
      setText(this.readoutEl, this.t('readout', {
        l: layer + 1, h: head + 1, c: v.chars[q], at: q + 1,
        looks: top.map((j) => this.t('look', { c: v.chars[j], where: j === q ? this.t('itself') : this.t('back', { k: q - j }), w: fmt(row[j]) })),
      }));
    }
    if (this.changed('matrix', a, layer, head, key)) {
      if (!this.colors || this.colorKey !== key) [this.colors, this.colorKey] = [palette(this.shadowRoot), key];
      paintMatrix(this.matrixEl, W, this.colors, 1);
      this.matrixEl.setAttribute('aria-label', this.t('mapLabel', { l: layer + 1, h: head + 1 }));
    }
  }
}

defineFigure('attention-tiny-gpt', TinyGpt);
