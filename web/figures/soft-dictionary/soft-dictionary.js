// <attention-soft-dictionary>: drag the query among keys; every key answers
// in proportion to its match. Attributes: temperature, query="x,y"; a page's
// own keys, values and labels through a data-example JSON child (parseExample).
import { props } from './soft-dictionary.props.js';
import { FigureElement, defineFigure } from '../../kit/figure-element.js';
import { h, s, replace, replaceFor, setAttr, setStyle, setText, steady } from '../../kit/dom.js';
import { slider } from '../../kit/controls.js';
import { rich } from '../../kit/rich.js';
import { num, pcts } from '../../kit/format.js';
import { columns } from '../../kit/example-data.js';
import { softLookup, hardDictionary, keyString, largestShare, parseQuery, parseExample, ENTRIES } from './soft-dictionary.model.js';

const SIZE = 300;
const C = SIZE / 2;
const UNIT = 118; // px per unit of the plane
const STEP = 0.05; // arrow-key step; keys sit on this grid
const SNAP = 0.08; // dragging this close to a key lands on it exactly
const LETTER = 7.5; // px per letter of a key's label, at most (12 px text)
const px = ([x, y]) => [C + x * UNIT, C - y * UNIT];
const rgb = (v) => `rgb(${v.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255)).join(',')})`;

class SoftDictionary extends FigureElement {
  static strings = { en: () => import('./soft-dictionary.strings.en.js'), zh: () => import('./soft-dictionary.strings.zh.js') };
  entries = ENTRIES;

  static props = props;

  static css = `
  .layout { display: grid; grid-template-columns: minmax(0, 320px) minmax(0, 1fr); gap: 16px; align-items: start; }
  @media (max-width: 640px) { .layout { grid-template-columns: minmax(0, 1fr); } }
  .plane { touch-action: manipulation; cursor: crosshair; width: 100%; max-width: 320px; background: var(--attention-panel); border-radius: 8px; }
  .plane .qh { touch-action: none; cursor: grab; }
  .plane .grid { stroke: var(--attention-border); stroke-width: 1; }
  .plane .link { stroke: var(--attention-fg); stroke-linecap: round; }
  .plane .key { stroke: var(--attention-fg); stroke-width: 1.5; }
  .plane .ring { fill: none; stroke: var(--attention-muted); stroke-dasharray: 2 3; }
  .plane .q { fill: var(--attention-bg); stroke: var(--attention-accent); stroke-width: 3; }
  .plane .qhit { fill: transparent; }
  .plane .qh:focus { outline: none; } .plane .qh:focus-visible .q { stroke-width: 5; }
  table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: 0.92em; }
  td { padding: 2px 4px; } td.bar { width: 45%; }
  .bar i { display: block; height: 12px; background: var(--attention-positive); border-radius: 3px; }
  .sw { display: inline-block; width: 1.1em; height: 1.1em; border-radius: 3px; vertical-align: -0.2em; border: 1px solid var(--attention-border); }
  .big.sw { width: 2.4em; height: 2.4em; vertical-align: middle; margin-right: 8px; }
  .out { display: flex; align-items: center; gap: 4px; margin: 4px 0; flex-wrap: wrap; }
  .out .said { flex: 1 1 10em; min-width: 0; }
  code { font-size: 0.9em; background: var(--attention-panel); padding: 1px 4px; border-radius: 4px; }
  .cols { display: grid; gap: 10px; }`;

  useExample(data) {
    this.entries = parseExample(data);
  }

  build() {
    const entries = this.entries;
    this.hardMap = hardDictionary(entries);
    this.tempSlider = slider({
      label: this.t('temperature'), min: 0.001, max: 1000, log: true, value: this.state.temperature, prop: 'temperature',
      format: (v) => (v < 0.1 ? v.toPrecision(1) : v < 10 ? v.toFixed(2) : Math.round(v).toString()),
      oninput: (temperature) => this.set({ temperature }),
    });
    this.plane = s('svg', { class: 'plane', viewBox: `0 0 ${SIZE} ${SIZE}`, width: SIZE, height: SIZE });
    this.links = entries.map(() => s('line', { class: 'link' }));
    this.rings = entries.map((e) => s('circle', { class: 'ring', cx: px(e.at)[0], cy: px(e.at)[1], r: 22 }));
    this.dots = entries.map((e) => s('circle', { class: 'key', cx: px(e.at)[0], cy: px(e.at)[1], style: `fill:${rgb(e.value)}` }));
    this.qMark = s('circle', { class: 'q', r: 8 });
    // the handle takes a finger 28 px across (WCAG 2.5.8 asks 24), around its 16 px mark
    this.qHit = s('circle', { class: 'qhit', r: 14 });
    this.qHandle = s('g', {
      class: 'qh', tabindex: 0, role: 'slider', 'aria-label': this.t('queryHandle'),
      'aria-valuemin': -1.2, 'aria-valuemax': 1.2,
    }, [this.qHit, this.qMark]);
    const grid = [-1, -0.5, 0, 0.5, 1].flatMap((g) => [
      s('line', { class: 'grid', x1: px([g, -1.2])[0], y1: 0, x2: px([g, -1.2])[0], y2: SIZE }),
      s('line', { class: 'grid', x1: 0, y1: px([0, g])[1], x2: SIZE, y2: px([0, g])[1] }),
    ]);
    // a label goes left of its key when it would run off the plane's right edge
    const labels = entries.map((e) => {
      const [x, y] = px(e.at);
      const left = x + 14 + columns(e.name) * LETTER > SIZE;
      return s('text', { x: left ? x - 14 : x + 14, y: y - 14, 'font-size': 12, 'text-anchor': left ? 'end' : 'start' }, e.name);
    });
    replace(this.plane, grid, this.links, this.rings, this.dots, labels, this.qHandle);
    this.bindPointer();
    // made once; render only resizes and rewrites them
    this.rows = entries.map(() => ({ bar: h('i'), share: h('td') }));
    this.list = h('tbody', {}, entries.map((e, i) => h('tr', {}, [
      h('td', {}, [h('span', { class: 'sw', style: `background:${rgb(e.value)}` }), ' ', e.name]),
      h('td', { class: 'bar' }, this.rows[i].bar),
      this.rows[i].share,
    ])));
    this.softSw = h('span', { class: 'big sw' });
    this.softValue = h('span');
    // the line naming the largest weight keeps the height of its longest form: a tie of all keys but one
    const byLength = [...entries].sort((a, b) => b.name.length - a.name.length).map((e) => e.name);
    const [largest, body] = steady('div', {}, [
      this.t('largestWeight', { name: byLength[0], share: '100%' }),
      this.t('noneStandsOut', { share: '20%' }),
      ...(entries.length > 2 ? [this.t('sharedLargest', { names: byLength.slice(0, -1), share: '50%' })] : []),
    ]);
    this.softLargest = body;
    this.soft = h('div', { class: 'out' }, [this.softSw, h('div', { class: 'said' }, [h('div', {}, this.softValue), largest])]);
    this.hardSw = h('span', { class: 'big sw', hidden: true });
    this.hardCall = h('code');
    this.hardAnswer = h('span');
    // (the call and its answer on lines of their own: the panel keeps its height as a key's length changes under a dragging finger)
    this.hard = h('div', { class: 'out' }, [this.hardSw, h('span', {}, [this.hardCall, h('br'), '\u2192 ', this.hardAnswer])]);
    return h('div', {}, [
      h('p', { class: 'title' }, this.t('title')),
      h('div', { class: 'layout' }, [
        h('div', {}, [this.plane, h('p', { class: 'note' }, this.t('dragNote'))]),
        h('div', { class: 'cols' }, [
          this.tempSlider.el,
          h('table', {}, [h('caption', { class: 'sr-only' }, this.t('weightsCaption')), this.list]),
          h('div', { class: 'panel' }, [h('strong', {}, this.t('softTitle')), this.soft]),
          h('div', { class: 'panel' }, [h('strong', {}, this.t('hardTitle')), this.hard,
            h('p', { class: 'note' }, this.t('hardNote'))]),
        ]),
      ]),
      h('p', { class: 'note' }, rich(this.t('note'))),
    ]);
  }

  get queryPoint() {
    return parseQuery(this.state.query);
  }

  moveQuery([x, y], snap) {
    let q = parseQuery(`${x},${y}`);
    if (snap) {
      const near = this.entries.find((e) => Math.hypot(e.at[0] - q[0], e.at[1] - q[1]) < SNAP);
      if (near) q = near.at.slice();
    }
    this.set({ query: q.join(',') });
  }

  bindPointer() {
    const toPlane = (ev) => {
      const r = this.plane.getBoundingClientRect();
      const k = SIZE / r.width;
      return [((ev.clientX - r.left) * k - C) / UNIT, (C - (ev.clientY - r.top) * k) / UNIT];
    };
    // A mouse or a pen drags the query from anywhere on the plane. A finger
    // drags the handle (which alone takes a touch for itself: touch-action
    // none), while the rest of the plane scrolls the page as any picture
    // would; a tap there puts the query where it landed.
    this.plane.addEventListener('pointerdown', (ev) => {
      const handle = this.qHandle.contains(ev.target);
      this.touched = ev.pointerType === 'touch'; // (a click is no PointerEvent in every engine)
      if (this.touched && !handle) return;
      this.plane.setPointerCapture(ev.pointerId);
      this.dragging = true;
      if (!handle) this.moveQuery(toPlane(ev), true);
      ev.preventDefault();
    });
    // (touch-action on an element inside an SVG is not honoured everywhere: a
    // touch that starts on the handle keeps the page from scrolling itself)
    this.plane.addEventListener('touchstart', (ev) => { if (this.qHandle.contains(ev.target)) ev.preventDefault(); }, { passive: false });
    this.plane.addEventListener('pointermove', (ev) => { if (this.dragging) this.moveQuery(toPlane(ev), true); });
    const end = () => { this.dragging = false; };
    this.plane.addEventListener('pointerup', end);
    this.plane.addEventListener('pointercancel', end);
    this.plane.addEventListener('click', (ev) => {
      if (this.touched && !this.qHandle.contains(ev.target)) this.moveQuery(toPlane(ev), true);
    });
    this.qHandle.addEventListener('keydown', (ev) => {
      const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
      if (!d) return;
      const [x, y] = this.queryPoint;
      const snapGrid = (v) => Math.round(v / STEP) * STEP;
      this.moveQuery([snapGrid(x) + d[0] * STEP, snapGrid(y) + d[1] * STEP], false);
      ev.preventDefault();
    });
  }

  syncControls() {
    this.tempSlider?.set(this.state.temperature);
  }

  render() {
    const q = this.queryPoint;
    const T = this.state.temperature;
    const entries = this.entries;
    const { weights, result } = softLookup(this.attn, q, T, entries);
    const [qx, qy] = px(q);
    // (attributes and styles written only when they change: each one written restyles its element)
    for (const c of [this.qHit, this.qMark]) {
      setAttr(c, 'cx', qx);
      setAttr(c, 'cy', qy);
    }
    setAttr(this.qHandle, 'aria-valuetext', this.t('queryAt', { x: num(q[0]), y: num(q[1]) }));
    entries.forEach((e, i) => {
      const [x, y] = px(e.at);
      setAttr(this.dots[i], 'r', 3 + 19 * Math.sqrt(weights[i]));
      Object.entries({ x1: qx, y1: qy, x2: x, y2: y }).forEach(([k, v]) => setAttr(this.links[i], k, v));
      setAttr(this.links[i], 'stroke-width', 0.5 + 6 * weights[i]);
      setAttr(this.links[i], 'stroke-opacity', 0.15 + 0.6 * weights[i]);
    });
    const shown = pcts(weights);
    const top = largestShare(weights, entries);
    const largest = this.t(top.key, { share: top.share, names: top.tied?.map((i) => entries[i].name), name: entries[top.entry]?.name });
    this.rows.forEach((r, i) => {
      setStyle(r.bar, 'width', `${(weights[i] * 100).toFixed(1)}%`);
      setText(r.share, shown[i]);
    });
    setStyle(this.softSw, 'background', rgb(result));
    setText(this.softValue, `(${result.map((v) => num(v)).join(', ')})`);
    setText(this.softLargest, largest);
    const key = keyString(q);
    const hit = this.hardMap.get(key);
    // (new words in the elements there: a drag changes the key at every step)
    setText(this.hardCall, `map.get("${key}")`);
    if (this.hardSw.hidden === Boolean(hit)) this.hardSw.hidden = !hit;
    if (hit) setStyle(this.hardSw, 'background', rgb(hit));
    const answer = hit ? `(${hit.map((v) => num(v)).join(', ')})` : null;
    replaceFor(this.hardAnswer, answer ?? '', () => answer ?? h('code', {}, 'undefined'));
    this.announce(this.t('summary', {
      x: num(q[0]), y: num(q[1]), T: num(T, 3), names: entries.map((e) => e.name), shares: shown, largest, map: this.t(hit ? 'mapFinds' : 'mapNothing'),
    }));
  }
}

defineFigure('attention-soft-dictionary', SoftDictionary);
