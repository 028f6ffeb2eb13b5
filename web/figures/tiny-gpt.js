// <attention-tiny-gpt>: a small GPT learns to write from this article's own
// text, character by character, in the reader's browser. Training runs in a
// Web Worker (tiny-gpt.worker.js); the page draws the training and held-out
// loss against a bigram model's, samples as the model learns, greedy
// decoding, temperature sampling and beam search side by side, and any
// head's attention on text the reader types.
// Attributes: steps="100..5000" (the budget), seed="0..".
import { defineFigure } from './figure-element.js';
import { h, s, replace } from './dom.js';
import { choice } from './controls.js';
import { TrainingFigure } from './training.js';
import { palette, paintMatrix } from './scale.canvas.js';
import { cssColor, maxAbs } from './scale.js';
import { labelColor } from './colors.js';
import { ALPHABET, DEFAULTS } from './tiny-gpt.model.js';
import strings from './tiny-gpt.strings.js';

const [PH, PL, PB, PT] = [210, 40, 30, 24]; // loss plot: height, left, bottom and top margins
const PW_MAX = 560;
const UNIFORM = Math.log(ALPHABET.length);
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '\u2013');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const shown = (text) => text.replace(/ /g, '\u00a0'); // keep the model's spaces visible in a line
const STRATEGIES = ['greedy', 'sample', 'beam']; // keys of the decodings and of their names (name, nameHow)

class TinyGpt extends TrainingFigure {
  static strings = strings;

  static props = {
    steps: { type: 'number', default: DEFAULTS.steps, min: 100, max: 5000 },
    seed: { type: 'number', default: DEFAULTS.seed, min: 0, max: 2 ** 31 },
  };

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
  .mono { font: 13px/1.55 ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
  .samples { margin: 0; padding: 0; list-style: none; }
  .samples li { display: grid; grid-template-columns: 5.5em 1fr; gap: 6px; }
  .samples .at { color: var(--attention-muted); font-size: 0.85em; font-variant-numeric: tabular-nums; }
  .write { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
  .write input, .attend input { font: inherit; padding: 3px 6px; min-width: 0; flex: 1 1 12em; max-width: 26em; }
  .decodings { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 10px; margin-top: 8px; }
  .decoding { background: var(--attention-panel); border-radius: 8px; padding: 8px 10px; }
  .decoding .name { font-weight: 600; font-size: 0.9em; }
  .decoding .how, .decoding .lp { color: var(--attention-muted); font-size: 0.8em; font-variant-numeric: tabular-nums; }
  .decoding .prompt { color: var(--attention-muted); }
  .decodings > .note { grid-column: 1 / -1; }
  .attend { display: grid; gap: 6px; }
  /* each character is a 24 px target at least (WCAG 2.5.8), so a finger can pick one */
  .chars { display: flex; flex-wrap: wrap; }
  .chars button { font: 14px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; border: 0; border-bottom: 2px solid transparent; padding: 1px 1px; min-width: 24px; min-height: 24px; text-align: center; margin: 0; border-radius: 2px; color: var(--attention-fg); cursor: pointer; }
  .chars button.query { border-bottom-color: var(--attention-accent); font-weight: 700; }
  .heads { display: flex; flex-wrap: wrap; gap: 8px 16px; }
  .matrix { width: 100%; max-width: 220px; aspect-ratio: 1; image-rendering: pixelated; border: 1px solid var(--attention-border); border-radius: 3px; }
  .readout { font-size: 0.85em; color: var(--attention-muted); min-height: 1.3em; font-variant-numeric: tabular-nums; }`;

  build() {
    // a rebuild in another language keeps the run and the choices so far
    this.curve ??= [];
    this.samples ??= [];
    this.bigram ??= null;
    this.written ??= null;
    this.attended ??= null;
    this.layer ??= 0;
    this.head ??= 0;
    this.query ??= -1; // the character whose attention is shown (-1: the last)
    this.run = h('button', { type: 'button', onclick: () => this.toggle() }, this.t('start'));
    this.resetButton = h('button', { type: 'button', onclick: () => this.reset() }, this.t('reset'));
    this.statusEl = h('p', { class: 'status', 'aria-live': 'polite' });
    this.plotEl = h('div');
    new ResizeObserver(() => this.invalidate()).observe(this.plotEl);
    this.samplesEl = h('ul', { class: 'samples mono' });
    this.promptInput = h('input', { type: 'text', value: this.promptInput?.value ?? DEFAULTS.prompt, 'aria-label': this.t('promptLabel'), maxlength: 60 });
    this.promptInput.addEventListener('keydown', (e) => { if (e.key === 'Enter') this.write(); });
    this.writeButton = h('button', { type: 'button', onclick: () => this.write() }, this.t('write'));
    this.decodingsEl = h('div', { class: 'decodings' });
    // empty until the worker says what it read (the article's own sentence) or the reader types
    this.textInput = h('input', { type: 'text', value: this.textInput?.value ?? '', 'aria-label': this.t('textLabel'), maxlength: 200 });
    this.textInput.addEventListener('input', () => { this.reading = this.textInput.value; this.query = -1; this.attend(); });
    this.layerChoice = choice({ label: this.t('layer'), value: String(this.layer), options: Array.from({ length: DEFAULTS.layers }, (_, l) => ({ value: String(l), label: String(l + 1) })), onchange: (v) => { this.layer = Number(v); this.invalidate(); } });
    this.headChoice = choice({ label: this.t('head'), value: String(this.head), options: Array.from({ length: DEFAULTS.heads }, (_, k) => ({ value: String(k), label: String(k + 1) })), onchange: (v) => { this.head = Number(v); this.invalidate(); } });
    this.charsEl = h('div', { class: 'chars', role: 'group', 'aria-label': this.t('charsLabel') });
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
      this.decodingsEl,
      h('div', { class: 'sub' }, this.t('attendHeading')),
      h('div', { class: 'attend' }, [
        h('label', {}, [`${this.t('typeText')} `, this.textInput]),
        h('div', { class: 'heads' }, [this.layerChoice.el, this.headChoice.el]),
        this.charsEl, this.readoutEl, this.matrixEl,
      ]),
      h('p', { class: 'note' }, this.t('note', {
        chars: ALPHABET.length, context: DEFAULTS.context, width: DEFAULTS.dModel, layers: DEFAULTS.layers, heads: DEFAULTS.heads,
        lr: DEFAULTS.lr, batch: DEFAULTS.batch, train: Math.round(100 * (1 - DEFAULTS.heldOut)), held: Math.round(100 * DEFAULTS.heldOut),
      })),
    ]);
  }

  reset() {
    this.curve = [];
    this.samples = [];
    this.written = null;
    this.attended = null;
    this.msg = { step: 0, steps: this.state.steps, running: false, trainingMs: 0 };
    this.spawn('tiny-gpt.worker.js', { steps: this.state.steps, seed: this.state.seed });
    this.write();
    this.attend();
    this.invalidate();
  }

  write() {
    if (this.msg?.running) return;
    this.worker?.postMessage({ type: 'write', prompt: this.promptInput.value });
  }

  attend() {
    this.worker?.postMessage({ type: 'attend', text: this.reading ?? undefined }); // none yet: the worker reads the article's
  }

  receive(msg) {
    if (msg.type === 'error') return this.fail(this.t('failed', { message: msg.message }));
    if (msg.type === 'written') this.written = msg;
    else if (msg.type === 'attended') {
      this.attended = msg.view;
      if (this.reading === undefined) this.textInput.value = msg.text;
    }
    else {
      const wasRunning = this.msg.running;
      this.msg = msg;
      this.bigram = msg.bigram;
      this.curve.push(...msg.curve);
      this.samples.push(...msg.samples);
      if (wasRunning && !msg.running) { this.write(); this.attend(); } // paused or done: what it writes now
      else if (msg.running && msg.step % 50 < 3) this.attend();
    }
    this.invalidate();
  }

  render() {
    const { step, steps, running, done, trainingMs, rate, state } = this.progress();
    this.writeButton.disabled = running || !!this.error;
    const last = this.curve.at(-1);
    this.statusEl.textContent = this.error ? this.t('stopped', { error: this.error }) : this.t('status', {
      step, steps, time: seconds(trainingMs), rate, state: this.t(state),
      losses: last && this.bigram ? this.t('statusLosses', { heldOut: fmt(last.heldOut), bigram: fmt(this.bigram.heldOut) }) : '',
    });
    replace(this.plotEl, this.plot());
    replace(this.samplesEl, this.samples.slice(-6).map((x) => h('li', {}, [h('span', { class: 'at' }, this.t('sampleStep', { step: x.step })), h('span', {}, shown(DEFAULTS.prompt + x.text))])));
    this.renderDecodings(running);
    this.renderAttention();
    this.announce(this.t('summary', {
      step, steps, state: running ? this.t('summaryTraining') : done ? this.t('summaryDone') : '',
      losses: last ? this.t('summaryLosses', { train: fmt(last.train), heldOut: fmt(last.heldOut), bigram: fmt(this.bigram?.heldOut) }) : '',
      loading: this.curve.length ? '' : this.t('summaryLoading'),
    }));
  }

  plot() {
    const PW = Math.max(280, Math.min(PW_MAX, Math.round(this.plotEl.clientWidth) || PW_MAX));
    const steps = this.msg.steps;
    const yMax = Math.ceil(Math.max(4, ...this.curve.map((p) => Math.max(p.train, p.heldOut))));
    const X = (st) => PL + (st / steps) * (PW - PL - 10);
    const Y = (v) => PT + (1 - v / yMax) * (PH - PB - PT);
    const kids = [];
    for (let v = 0; v <= yMax; v++) kids.push(s('line', { class: 'grid', x1: PL, x2: PW - 10, y1: Y(v), y2: Y(v) }), s('text', { x: PL - 6, y: Y(v) + 4, 'text-anchor': 'end' }, String(v)));
    for (let k = 0; k <= 4; k++) {
      const st = Math.round((k * steps) / 4);
      kids.push(s('text', { x: X(st), y: PH - PB + 15, 'text-anchor': 'middle' }, String(st)));
    }
    kids.push(s('text', { x: (PL + PW) / 2, y: PH - 2, 'text-anchor': 'middle' }, this.t('stepAxis')), s('text', { x: 4, y: 10 }, this.t('lossAxis')));
    kids.push(s('line', { class: 'ref', x1: PL, x2: PW - 10, y1: Y(UNIFORM), y2: Y(UNIFORM) }),
      s('text', { x: PW - 12, y: Y(UNIFORM) - 4, 'text-anchor': 'end' }, this.t('uniform', { n: ALPHABET.length, value: UNIFORM.toFixed(2) })));
    if (this.bigram) {
      const b = this.bigram.heldOut;
      kids.push(s('line', { class: 'ref bigram', x1: PL, x2: PW - 10, y1: Y(b), y2: Y(b) }), s('text', { x: PW - 12, y: Y(b) - 4, 'text-anchor': 'end' }, this.t('bigramLine', { value: fmt(b) })));
    }
    for (const [part, cls] of [['train', 'train'], ['heldOut', 'held']]) {
      if (this.curve.length) kids.push(s('polyline', { class: cls, points: this.curve.map((p) => `${X(p.step).toFixed(1)},${Y(p[part]).toFixed(1)}`).join(' ') }));
    }
    return s('svg', { class: 'plot', viewBox: `0 0 ${PW} ${PH}`, role: 'img', 'aria-label': this.t('plotLabel') }, kids);
  }

  renderDecodings(running) {
    const w = this.written;
    if (!w) return replace(this.decodingsEl, h('p', { class: 'note' }, this.t('writing')));
    const knobs = { t: DEFAULTS.temperature, w: DEFAULTS.beam };
    replace(this.decodingsEl, STRATEGIES.map((key) => {
      const d = w.decodings[key];
      return h('div', { class: 'decoding' }, [
        h('div', { class: 'name' }, this.t(key, knobs)), h('div', { class: 'how' }, this.t(`${key}How`, knobs)),
        h('p', { class: 'mono' }, [h('span', { class: 'prompt' }, shown(w.prompt)), shown(d.text)]),
        h('div', { class: 'lp' }, this.t('logProb', { lp: d.logProb.toFixed(1), per: (-d.logProb / d.text.length).toFixed(2) })),
      ]);
    }));
    if (running) this.decodingsEl.append(h('p', { class: 'note' }, this.t('writtenAt', { step: w.step })));
  }

  renderAttention() {
    const v = this.attended;
    if (!v) return;
    const W = v.attention[this.layer][this.head];
    const n = v.chars.length;
    const q = this.query >= 0 && this.query < n ? this.query : n - 1;
    const row = W.data.subarray(q * n, q * n + n);
    const focused = this.shadowRoot.activeElement?.dataset?.at;
    const top1 = maxAbs(row); // the project's scale, relative to the largest weight in view
    replace(this.charsEl, [...v.chars].map((c, i) => {
      const b = h('button', { type: 'button', class: i === q ? 'query' : '', 'data-at': String(i), style: `background: ${cssColor(row[i], top1)}; color: ${labelColor(this.shadowRoot, row[i], top1)}`,
        'aria-label': this.t('char', { c: c === ' ' ? this.t('space') : c, w: fmt(row[i]) }), onclick: () => { this.query = i; this.invalidate(); } }, c === ' ' ? '\u00a0' : c);
      b.addEventListener('mouseenter', () => { this.query = i; this.invalidate(); });
      return b;
    }));
    if (focused) this.charsEl.querySelector(`button[data-at="${focused}"]`)?.focus();
    const top = [...row.keys()].sort((a, b) => row[b] - row[a]).slice(0, 3).filter((j) => row[j] > 0.05);
    this.readoutEl.textContent = this.t('readout', {
      l: this.layer + 1, h: this.head + 1, c: v.chars[q], at: q + 1,
      looks: top.map((j) => this.t('look', { c: v.chars[j], where: j === q ? this.t('itself') : this.t('back', { k: q - j }), w: fmt(row[j]) })),
    });
    const key = getComputedStyle(this).getPropertyValue('--attention-positive');
    if (!this.colors || this.colorKey !== key) [this.colors, this.colorKey] = [palette(this.shadowRoot), key];
    paintMatrix(this.matrixEl, W, this.colors, 1);
    this.matrixEl.setAttribute('aria-label', this.t('mapLabel', { l: this.layer + 1, h: this.head + 1 }));
  }
}

defineFigure('attention-tiny-gpt', TinyGpt);
