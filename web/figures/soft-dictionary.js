// <attention-soft-dictionary>: drag the query among keys; every key answers
// in proportion to its match. Attributes: temperature, query="x,y".
import { FigureElement, defineFigure } from './figure-element.js';
import { h, s, replace } from './dom.js';
import { slider } from './controls.js';
import { mathSpan } from './math.js';
import { num, pcts } from './format.js';
import { softLookup, hardDictionary, keyString, largestShare, parseQuery, ENTRIES } from './soft-dictionary.model.js';

const SIZE = 300;
const C = SIZE / 2;
const UNIT = 118; // px per unit of the plane
const STEP = 0.05; // arrow-key step; keys sit on this grid
const SNAP = 0.08; // dragging this close to a key lands on it exactly
const px = ([x, y]) => [C + x * UNIT, C - y * UNIT];
const rgb = (v) => `rgb(${v.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255)).join(',')})`;
const DEFAULT_QUERY = '0.35,-0.15';

class SoftDictionary extends FigureElement {
  static props = {
    temperature: { type: 'number', default: 0.2, min: 0.001, max: 1000 },
    query: { type: 'string', default: DEFAULT_QUERY, normalize: (t) => (parseQuery(t) ?? parseQuery(DEFAULT_QUERY)).join(',') },
  };

  static css = `
  .layout { display: grid; grid-template-columns: minmax(0, 320px) minmax(0, 1fr); gap: 16px; align-items: start; }
  @media (max-width: 640px) { .layout { grid-template-columns: minmax(0, 1fr); } }
  .plane { touch-action: none; cursor: crosshair; width: 100%; max-width: 320px; background: var(--attention-panel); border-radius: 8px; }
  .plane .grid { stroke: var(--attention-border); stroke-width: 1; }
  .plane .link { stroke: var(--attention-fg); stroke-linecap: round; }
  .plane .key { stroke: var(--attention-fg); stroke-width: 1.5; }
  .plane .ring { fill: none; stroke: var(--attention-muted); stroke-dasharray: 2 3; }
  .plane .q { fill: var(--attention-bg); stroke: var(--attention-accent); stroke-width: 3; }
  .plane .qh:focus { outline: none; } .plane .qh:focus-visible .q { stroke-width: 5; }
  table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: 0.92em; }
  td { padding: 2px 4px; } td.bar { width: 45%; }
  .bar i { display: block; height: 12px; background: var(--attention-positive); border-radius: 3px; }
  .sw { display: inline-block; width: 1.1em; height: 1.1em; border-radius: 3px; vertical-align: -0.2em; border: 1px solid var(--attention-border); }
  .big.sw { width: 2.4em; height: 2.4em; vertical-align: middle; margin-right: 8px; }
  .out { display: flex; align-items: center; gap: 4px; margin: 4px 0; flex-wrap: wrap; }
  code { font-size: 0.9em; background: var(--attention-panel); padding: 1px 4px; border-radius: 4px; }
  .cols { display: grid; gap: 10px; }`;

  build() {
    this.tempSlider = slider({
      label: 'Temperature T', min: 0.001, max: 1000, log: true, value: this.state.temperature, prop: 'temperature',
      format: (v) => (v < 0.1 ? v.toPrecision(1) : v < 10 ? v.toFixed(2) : Math.round(v).toString()),
      oninput: (temperature) => this.set({ temperature }),
    });
    this.plane = s('svg', { class: 'plane', viewBox: `0 0 ${SIZE} ${SIZE}`, width: SIZE, height: SIZE });
    this.links = ENTRIES.map(() => s('line', { class: 'link' }));
    this.rings = ENTRIES.map((e) => s('circle', { class: 'ring', cx: px(e.at)[0], cy: px(e.at)[1], r: 22 }));
    this.dots = ENTRIES.map((e) => s('circle', { class: 'key', cx: px(e.at)[0], cy: px(e.at)[1], style: `fill:${rgb(e.value)}` }));
    this.qMark = s('circle', { class: 'q', r: 8 });
    this.qHandle = s('g', {
      class: 'qh', tabindex: 0, role: 'slider', 'aria-label': 'Query position; arrow keys move it',
      'aria-valuemin': -1.2, 'aria-valuemax': 1.2,
    }, [this.qMark]);
    const grid = [-1, -0.5, 0, 0.5, 1].flatMap((g) => [
      s('line', { class: 'grid', x1: px([g, -1.2])[0], y1: 0, x2: px([g, -1.2])[0], y2: SIZE }),
      s('line', { class: 'grid', x1: 0, y1: px([0, g])[1], x2: SIZE, y2: px([0, g])[1] }),
    ]);
    const labels = ENTRIES.map((e) => s('text', { x: px(e.at)[0] + 14, y: px(e.at)[1] - 14, 'font-size': 12 }, e.name));
    replace(this.plane, grid, this.links, this.rings, this.dots, labels, this.qHandle);
    this.bindPointer();
    this.list = h('tbody');
    this.soft = h('div');
    this.hard = h('div');
    return h('div', {}, [
      h('p', { class: 'title' }, 'A dictionary that never says “no such key”'),
      h('div', { class: 'layout' }, [
        h('div', {}, [this.plane, h('p', { class: 'note' }, 'Drag the ring (or focus it and use the arrow keys). Near a key it snaps onto it.')]),
        h('div', { class: 'cols' }, [
          this.tempSlider.el,
          h('table', {}, [h('caption', { class: 'sr-only' }, 'Weight of each key'), this.list]),
          h('div', { class: 'panel' }, [h('strong', {}, 'Soft lookup (attention)'), this.soft]),
          h('div', { class: 'panel' }, [h('strong', {}, 'Hard lookup (a JavaScript Map)'), this.hard,
            h('p', { class: 'note' }, 'A Map answers only a query that is exactly one of its keys; anywhere else it has nothing to say.')]),
        ]),
      ]),
      h('p', { class: 'note' }, ['Each key’s score is minus its squared distance to the query, so the nearest key always scores best (a plain dot product would favour keys far out in the query’s direction). '
        + 'It is written as a dot product so that the same attention kernel computes it: ',
        mathSpan('w_j=\\mathrm{softmax}_j\\!\\left(-\\lVert \\boldsymbol{q}-\\boldsymbol{k}_j\\rVert^2/T\\right)'),
        '. Cold (small T) the soft lookup returns the nearest key’s value, a nearest-neighbour lookup; hot (large T) the average of all values.']),
    ]);
  }

  get queryPoint() {
    return parseQuery(this.state.query);
  }

  moveQuery([x, y], snap) {
    let q = parseQuery(`${x},${y}`);
    if (snap) {
      const near = ENTRIES.find((e) => Math.hypot(e.at[0] - q[0], e.at[1] - q[1]) < SNAP);
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
    this.plane.addEventListener('pointerdown', (ev) => {
      this.plane.setPointerCapture(ev.pointerId);
      this.dragging = true;
      this.moveQuery(toPlane(ev), true);
      ev.preventDefault();
    });
    this.plane.addEventListener('pointermove', (ev) => { if (this.dragging) this.moveQuery(toPlane(ev), true); });
    const end = () => { this.dragging = false; };
    this.plane.addEventListener('pointerup', end);
    this.plane.addEventListener('pointercancel', end);
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
    const { weights, result } = softLookup(this.attn, q, T);
    const [qx, qy] = px(q);
    this.qMark.setAttribute('cx', qx);
    this.qMark.setAttribute('cy', qy);
    this.qHandle.setAttribute('aria-valuetext', `query at ${num(q[0])}, ${num(q[1])}`);
    ENTRIES.forEach((e, i) => {
      const [x, y] = px(e.at);
      this.dots[i].setAttribute('r', 3 + 19 * Math.sqrt(weights[i]));
      Object.entries({ x1: qx, y1: qy, x2: x, y2: y }).forEach(([k, v]) => this.links[i].setAttribute(k, v));
      this.links[i].setAttribute('stroke-width', 0.5 + 6 * weights[i]);
      this.links[i].setAttribute('stroke-opacity', 0.15 + 0.6 * weights[i]);
    });
    const shown = pcts(weights);
    replace(this.list, ENTRIES.map((e, i) => h('tr', {}, [
      h('td', {}, [h('span', { class: 'sw', style: `background:${rgb(e.value)}` }), ' ', e.name]),
      h('td', { class: 'bar' }, h('i', { style: `width:${(weights[i] * 100).toFixed(1)}%` })),
      h('td', {}, shown[i]),
    ])));
    replace(this.soft, h('div', { class: 'out' }, [
      h('span', { class: 'big sw', style: `background:${rgb(result)}` }),
      h('span', {}, [`(${result.map((v) => num(v)).join(', ')})`, h('br'), largestShare(weights)]),
    ]));
    const key = keyString(q);
    const hit = hardDictionary().get(key);
    replace(this.hard, h('div', { class: 'out' }, [
      hit ? h('span', { class: 'big sw', style: `background:${rgb(hit)}` }) : null,
      h('span', {}, [h('code', {}, `map.get("${key}")`), ' \u2192 ', hit ? `(${hit.map((v) => num(v)).join(', ')})` : h('code', {}, 'undefined')]),
    ]));
    this.announce(`Query at ${num(q[0])}, ${num(q[1])}, temperature ${num(T, 3)}: weights ${ENTRIES.map((e, i) => `${e.name} ${shown[i]}`).join(', ')}; ${largestShare(weights)}. `
      + `The Map lookup ${hit ? 'finds this exact key' : 'finds nothing'}.`);
  }
}

defineFigure('attention-soft-dictionary', SoftDictionary);
