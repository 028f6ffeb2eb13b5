// <attention-heatmap>: a viewer for anyone's attention weights, drawn per
// layer and head like BertViz, with heads that can be switched off. Without
// data it shows a small two-layer model computed live by the kernels, where
// switching a head off recomputes everything after it.
// Attributes: src="weights.json" (this page's origin only), layer="1..",
// off="1.2,2.3" (layer.head pairs switched off), token="-1.." (query whose
// lines show).
// Property: data = an object or a JSON string in the format of heatmap.model.js.
import { props } from './heatmap.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, replace, setAttr, setStyle, setText } from '../../kit/dom.js';
import { palette } from '../../kit/draw/scale-canvas.js';
import { parseHeatmap, demoModel, DEMO_HEADS, LIMITS } from './heatmap.model.js';
import { headView, modelView, headColor, MAX_LINE_TOKENS } from './heatmap.view.js';

const FORMAT = '{"tokens": ["The", "cat", ...], "attention": [[[[...], ...], ...], ...]}';
const PYTHON = 'out = model(**inputs, output_attentions=True)\n'
  + 'json.dump({"tokens": tokenizer.convert_ids_to_tokens(inputs["input_ids"][0]),\n'
  + '           "attention": [a[0].tolist() for a in out.attentions]}, open("weights.json", "w"))';


class Heatmap extends FigureElement {
  static strings = { en: () => import('./heatmap.strings.en.js'), zh: () => import('./heatmap.strings.zh.js') };

  static props = props;

  static css = `
  .source { margin: 0 0 6px; }
  .msg { background: var(--attention-panel); border-left: 4px solid var(--attention-negative); padding: 6px 10px; margin: 6px 0; border-radius: 4px; }
  .msg.warn { border-left-color: var(--attention-key); }
  .heads { display: flex; flex-wrap: wrap; gap: 4px 14px; }
  .heads .switch i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; }
  .main { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; margin-top: 8px; }
  .headview text { font-size: 12px; dominant-baseline: central; }
  .whole:empty { display: none; }
  .headview text.k[tabindex] { cursor: pointer; text-decoration: underline dotted; }
  .headview .qrow { cursor: pointer; } .headview .qrow rect { fill: transparent; }
  .headview .qrow:focus { outline: none; } .headview .qrow:focus-visible text { fill: var(--attention-accent); text-decoration: underline; }
  .headview text.sel { font-weight: 700; fill: var(--attention-accent); }
  .grid { display: grid; gap: 4px; }
  .grid .layer { display: flex; gap: 4px; align-items: center; padding: 2px; border-radius: 6px; }
  .grid .layer.sel { background: var(--attention-panel); outline: 1px solid var(--attention-accent); }
  .grid .lab { width: 2.2em; font-size: 0.8em; color: var(--attention-muted); }
  .grid .cell { padding: 0; min-width: 0; min-height: 0; border: 0; background: none; line-height: 0; }
  @media print { .grid .cell { display: inline-block !important; } } /* (kept on paper: each is a head's map, a button only on screen) */
  .thumb { width: 56px; height: 56px; image-rendering: pixelated; border: 2px solid; border-radius: 3px; }
  .thumb.off { opacity: 0.25; }
  textarea { width: 100%; min-height: 7em; font: 12px/1.4 ui-monospace, monospace; }
  pre { font-size: 11px; overflow-x: auto; background: var(--attention-panel); padding: 6px; border-radius: 6px; }
  details { margin-top: 10px; } summary { cursor: pointer; font-weight: 600; }`;

  build() {
    this.userData = null; // parsed data from src, the data property or the reader
    this.loadedSrc = '';
    this.shapeOf = null; // the data the layer buttons and the grid were made for
    this.linesOf = null; // and the head view
    this.sourceEl = h('p', { class: 'source note' });
    this.messages = h('div', { 'aria-live': 'polite' });
    this.layerEl = h('div', { class: 'controls' });
    this.headsEl = h('div', { class: 'heads' });
    this.main = h('div', { class: 'main' });
    const format = `${FORMAT}   ${this.t('formatShape')}`;
    this.text = h('textarea', { 'aria-label': this.t('textareaLabel'), spellcheck: 'false', placeholder: format });
    const file = h('input', { type: 'file', accept: '.json,application/json', 'aria-label': this.t('fileLabel') });
    file.addEventListener('change', async () => { if (file.files[0]) this.load(await file.files[0].text(), file.files[0].name); });
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      this.sourceEl, this.messages, this.layerEl, this.headsEl, this.main,
      h('details', {}, [
        h('summary', {}, this.t('showYourOwn')),
        h('p', {}, [this.t('formatIntro'), h('code', {}, format), this.t('formatAfter')]),
        h('pre', {}, PYTHON),
        this.text,
        h('div', { class: 'controls' }, [
          h('button', { type: 'button', onclick: () => this.load(this.text.value, ['pastedJson']) }, this.t('show')), file,
          h('button', { type: 'button', onclick: () => this.backToDemo() }, this.t('backToDemo')),
        ]),
      ]),
      h('p', { class: 'note' }, this.t('note')),
    ]);
  }

  /** Viewer data: an object or JSON text (as in heatmap.model.js). */
  set data(value) {
    this.pending = value;
    if (this.attn) this.load(value, ['dataProperty']);
  }

  get data() {
    return this.userData;
  }

  /** `name`: a file name or address, or [key] of a string (pasted JSON, the data property). */
  load(input, name) {
    const r = parseHeatmap(input);
    if (!r.ok) {
      this.error = ['couldNotShow', { name, problem: [r.error.key, r.error.args] }];
    } else {
      this.error = '';
      this.userData = { ...r.data, name, fromSrc: name === this.state.src };
      if (!this.userData.fromSrc) Object.assign(this.state, { src: '', layer: 1, off: '', token: -1 });
    }
    this.invalidate();
  }

  /** The demo again: what was loaded, and what could not be, forgotten. */
  backToDemo() {
    this.userData = null;
    this.error = '';
    this.loadedSrc = undefined; // (the same src set again is fetched again)
    this.set({ src: '', off: '', layer: 1, token: -1 });
  }

  /** A link restores the demo or a src file; it cannot hold weights the reader pasted or loaded from a file. */
  linkable() {
    return !this.userData || this.userData.fromSrc;
  }

  async fetchSrc(src) {
    this.loadedSrc = src;
    try {
      const url = new URL(src, document.baseURI);
      if (url.origin !== location.origin) return this.failed(src, ['otherOrigin']);
      const res = await fetch(url);
      if (!res.ok) return this.failed(src, ['httpStatus', { status: res.status }]);
      if (Number(res.headers.get('content-length')) > LIMITS.chars) return this.failed(src, ['fileTooLarge', { mb: LIMITS.chars / 1e6 }]);
      this.load(await res.text(), src);
    } catch (err) {
      this.failed(src, ['fetchFailed', { message: err.message }]);
    }
  }

  failed(src, problem) {
    this.error = ['couldNotLoadSrc', { src, problem }];
    this.invalidate();
  }

  offSet() {
    return new Set(String(this.state.off).split(',').filter(Boolean));
  }

  toggleHead(l, hd) {
    const off = this.offSet();
    const key = `${l + 1}.${hd + 1}`;
    if (off.has(key)) off.delete(key); else off.add(key);
    this.set({ off: [...off].sort().join(',') });
  }

  rehearsal() {
    return { off: this.state.off ? '' : '1.1' }; // (a head's switch)
  }

  render() {
    if (this.pending !== undefined) {
      const p = this.pending;
      this.pending = undefined;
      this.load(p, ['dataProperty']);
    }
    if (this.state.src && this.state.src !== this.loadedSrc) this.fetchSrc(this.state.src);
    if (!this.state.src && this.userData?.fromSrc) this.userData = null; // src removed: back to the demo
    this.colors = palette(this.shadowRoot); // in the current theme
    const off = this.offSet();
    const isOff = (l, hd) => off.has(`${l + 1}.${hd + 1}`);
    const demo = !this.userData;
    const data = this.userData ?? demoModel(this.attn, { off: [0, 1].map((l) => [0, 1, 2, 3].map((hd) => isOff(l, hd))) });
    const L = data.layers.length;
    const l = Math.min(L, this.state.layer) - 1;
    const heads = data.layers[l];
    const token = this.state.token < data.tokens.length ? this.state.token : -1;
    Object.assign(this.state, { layer: l + 1, token }); // what is drawn is the state

    setText(this.sourceEl, demo ? this.t('sourceDemo')
      : this.t('sourceData', { name: this.say(data.name), tokens: data.tokens.length, layers: L, heads: heads.length }));
    replace(this.messages, [
      this.error ? h('p', { class: 'msg', role: 'alert' }, this.say(this.error)) : null,
      ...data.warnings.map((w) => h('p', { class: 'msg warn' }, this.t(w.key, w.args))),
    ]);
    // the layer buttons, head switches and grid are made again only for other data or another layer
    const source = demo ? 'demo' : data;
    if (this.shapeOf !== source) {
      this.shapeOf = source;
      this.layerOf = -1;
      this.grid = modelView(this.t, data.layers.map((hs) => hs.length), (k) => this.set({ layer: k + 1 }));
      this.layerButtons = data.layers.map((_, k) => h('button', { type: 'button', 'data-key': `layer-${k}`, onclick: () => this.set({ layer: k + 1 }) }, String(k + 1)));
      replace(this.layerEl, L > 1 ? [h('span', {}, this.t('layer')), ...this.layerButtons] : []);
    }
    this.layerButtons.forEach((b, k) => {
      setAttr(b, 'aria-pressed', k === l);
      setStyle(b, 'cssText', k === l ? 'border-color:var(--attention-accent);font-weight:700' : '');
    });
    if (this.layerOf !== l) {
      this.layerOf = l;
      this.switches = heads.map((_, hd) => {
        const input = h('input', { type: 'checkbox', role: 'switch', 'data-key': `head-${hd}` });
        input.addEventListener('change', () => this.toggleHead(l, hd));
        const name = demo ? this.t('headRole', { n: hd + 1, role: this.t(DEMO_HEADS[l][hd]) }) : this.t('head', { n: hd + 1 });
        return { input, el: h('label', { class: 'switch' }, [input, h('i', { style: `background:${headColor(hd)}` }), name]) };
      });
      replace(this.headsEl, this.switches.map((sw) => sw.el));
    }
    this.switches.forEach((sw, hd) => { sw.input.checked = !isOff(l, hd); });
    const on = heads.map((_, hd) => !isOff(l, hd));
    const pick = (i) => this.set({ token: i });
    const big = Math.max(data.tokens.length, data.keyTokens.length) > MAX_LINE_TOKENS && token < 0;
    this.grid.update({ layers: data.layers, colors: this.colors, off: isOff, layer: l });
    if (this.linesOf !== source) { // the head view is made once for the data's tokens, then redrawn
      this.linesOf = source;
      this.headLines = headView({ t: this.t, tokens: data.tokens, keyTokens: data.keyTokens, onpick: pick });
    }
    const lines = big ? h('p', { class: 'note' }, this.t('tooManyLines', { n: data.tokens.length })) : this.headLines.el;
    if (!big) this.headLines.update({ weights: heads, on, token, root: this.shadowRoot });
    if (this.main.firstChild !== lines || this.main.lastChild !== this.grid.el) replace(this.main, [lines, this.grid.el]);
    this.announce(this.t('summary', { name: demo ? this.t('demoName') : this.say(data.name), layer: l + 1, on: on.filter(Boolean).length, heads: heads.length,
      lines: token >= 0 ? this.t('summaryLines', { token: data.tokens[token] }) : '' }));
  }
}

defineFigure('attention-heatmap', Heatmap);
