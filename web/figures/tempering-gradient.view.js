// tempering-gradient.view.js: attention-tempering's learning panel. A log-log
// plot of the gradient that reaches the scores (mean norm per query) against
// d_k, without the division (it falls toward 0: the softmax saturates) and
// with it (it stays level), and a mark at the slider's d_k. The numbers come
// from tempering-gradient.model.js (matmul, softmax and softmaxBackward).
import { h, s, replace } from './dom.js';
import { num } from './format.js';
import { DKS, MAX_DK, QUERIES, KEYS, temperingGradientCurve, temperingGradientModel } from './tempering-gradient.model.js';

const [W, H, L, B, T] = [520, 150, 46, 26, 8]; // plot size, left, bottom and top margins

export const gradientCss = `
  .grad { margin-top: 12px; }
  .grad .sub { margin: 0 0 4px; font-size: 0.95em; font-weight: 600; }
  .grad svg { max-width: 100%; height: auto; }
  .grad .unscaled { stroke: var(--attention-negative); }
  .grad .scaled { stroke: var(--attention-positive); }
  .grad circle.unscaled { fill: var(--attention-negative); }
  .grad circle.scaled { fill: var(--attention-positive); }
  .grad polyline { fill: none; stroke-width: 2; }
  .grad .axis, .grad .now { stroke: var(--attention-border); }
  .grad .now { stroke-dasharray: 3 3; }
  .grad text { font-size: 11px; fill: var(--attention-muted); }
  .grad p { margin: 4px 0 0; font-size: 0.88em; font-variant-numeric: tabular-nums; }`;

/** The panel's element; update(attn, dk) redraws it for the slider's d_k. */
export function gradientPanel() {
  const svg = s('svg', { viewBox: `0 0 ${W} ${H + B + T}`, width: W, role: 'img' });
  const readout = h('p');
  const el = h('div', { class: 'grad' }, [
    h('div', { class: 'sub' }, 'What learning sees: the gradient that reaches the scores'),
    h('div', {}, [
      h('span', { class: 'key' }, [h('i', { class: 'raw' }), 'softmax(q\u00b7k), no division']),
      h('span', { class: 'key' }, [h('i', { class: 'scaled' }), 'softmax(q\u00b7k / \u221ad\u2096)']),
    ]),
    svg,
    readout,
  ]);
  let curve = null; // the same for every slider position: computed once
  function update(attn, dk) {
    curve ??= temperingGradientCurve(attn);
    const here = temperingGradientModel(attn, { dk });
    const norms = curve.flatMap((m) => [m.unscaled.norm, m.scaled.norm]).concat(here.unscaled.norm, here.scaled.norm);
    const [lo, hi] = [Math.log10(Math.min(...norms)), Math.log10(Math.max(...norms))];
    const [yMin, yMax] = [Math.floor(lo), Math.max(Math.ceil(hi), Math.floor(lo) + 1)];
    const x = (d) => L + ((W - L - 4) * Math.log2(d)) / Math.log2(MAX_DK);
    const y = (v) => T + H - (H * (Math.log10(v) - yMin)) / (yMax - yMin);
    const line = (side) => s('polyline', { class: side, points: curve.map((m) => `${x(m.dk)},${y(m[side].norm)}`).join(' ') });
    const dots = (side) => curve.map((m) => s('circle', { class: side, cx: x(m.dk), cy: y(m[side].norm), r: 2.5 }));
    const yTicks = [];
    for (let e = yMin; e <= yMax; e++) {
      yTicks.push(s('text', { x: L - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' }, e === 0 ? '1' : `1e${e}`));
    }
    replace(svg,
      s('line', { class: 'axis', x1: L, x2: W, y1: T + H + 0.5, y2: T + H + 0.5 }),
      s('line', { class: 'axis', x1: L - 0.5, x2: L - 0.5, y1: T, y2: T + H }),
      DKS.map((d) => s('text', { x: x(d), y: T + H + 16, 'text-anchor': 'middle' }, String(d))),
      s('text', { x: L + 4, y: T + 10 }, 'mean norm, log scale'),
      s('text', { x: W, y: T + H - 6, 'text-anchor': 'end' }, 'd\u2096 (log scale)'),
      yTicks,
      s('line', { class: 'now', x1: x(dk), x2: x(dk), y1: T, y2: T + H }),
      line('unscaled'), line('scaled'), dots('unscaled'), dots('scaled'),
      s('circle', { class: 'unscaled', cx: x(dk), cy: y(here.unscaled.norm), r: 4.5 }),
      s('circle', { class: 'scaled', cx: x(dk), cy: y(here.scaled.norm), r: 4.5 }));
    const text = `At d\u2096 = ${dk}, the score gradient has mean norm ${num(here.unscaled.norm, 3)} without the division `
      + `and ${num(here.scaled.norm, 3)} with it (${num(curve[0].scaled.norm, 3)} at d\u2096 = 1).`;
    svg.setAttribute('aria-label', `Log-log plot of the score gradient's mean norm against d_k from 1 to ${MAX_DK}: `
      + `without the division it falls from ${num(curve[0].unscaled.norm, 3)} to ${num(curve.at(-1).unscaled.norm, 3)}; `
      + `with it, it stays between ${num(Math.min(...curve.map((m) => m.scaled.norm)), 3)} and ${num(Math.max(...curve.map((m) => m.scaled.norm)), 3)}`);
    replace(readout, `${text} Each of ${QUERIES} queries softmaxes over ${KEYS} keys; the same random gradient arrives at the weights `
      + 'on both sides, and softmaxBackward carries it back to the scores. Where the softmax is saturated, little gets through, and the queries and keys stop learning.');
    return text;
  }
  return { el, update };
}
