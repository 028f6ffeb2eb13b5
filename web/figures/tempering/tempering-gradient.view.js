// tempering-gradient.view.js: attention-tempering's learning panel. A log-log
// plot of the gradient at the softmax's input, its slope (mean norm per
// query), against d_k, without the division (it falls toward 0: the softmax
// saturates) and with it (it stays level), and a mark at the slider's d_k;
// the read-out also gives what reaches the queries, which the plot does not
// show. The numbers come from tempering-gradient.model.js (matmul, softmax
// and softmaxBackward). The plot is drawn as wide as its column (at most
// W), so that its labels keep their size on a phone.
import { h, s, replace, setText } from '../../kit/dom.js';
import { num } from '../../kit/format.js';
import { DKS, MAX_DK, QUERIES, KEYS, temperingGradientCurve, temperingGradientModel } from './tempering-gradient.model.js';

const [W, H, L, B, T] = [520, 150, 46, 26, 8]; // largest width, plot height, left, bottom and top margins

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

/**
 * The panel's element; update(attn, dk) redraws it for the slider's d_k and
 * returns its sentence; prepare(attn, dk) computes a d_k's numbers ahead;
 * fit(width) gives it the width of its column. `t` translates
 * (tempering.strings.en.js). The curve is the same for every slider position:
 * computed and drawn once (again only if the slider's point falls outside
 * its axis, or the width changes); a change moves the mark.
 */
export function gradientPanel(t) {
  let width = W;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H + B + T}`, width: W, role: 'img' });
  const readout = h('p');
  const el = h('div', { class: 'grad' }, [
    h('div', { class: 'sub' }, t('gradientTitle')),
    h('div', {}, [
      h('span', { class: 'key' }, [h('i', { class: 'raw' }), t('softmaxRaw')]),
      h('span', { class: 'key' }, [h('i', { class: 'scaled' }), t('gradientScaled')]),
    ]),
    svg,
    readout,
  ]);
  const now = s('line', { class: 'now', y1: T, y2: T + H });
  const marks = { unscaled: s('circle', { class: 'unscaled', r: 4.5 }), scaled: s('circle', { class: 'scaled', r: 4.5 }) };
  const x = (d) => L + ((width - L - 4) * Math.log2(d)) / Math.log2(MAX_DK);
  let curve = null;
  let axis = null; // [yMin, yMax]: powers of 10 the plot spans
  function draw([yMin, yMax]) {
    const y = (v) => T + H - (H * (Math.log10(v) - yMin)) / (yMax - yMin);
    const line = (side) => s('polyline', { class: side, points: curve.map((m) => `${x(m.dk)},${y(m[side].norm)}`).join(' ') });
    const dots = (side) => curve.map((m) => s('circle', { class: side, cx: x(m.dk), cy: y(m[side].norm), r: 2.5 }));
    const yTicks = [];
    for (let e = yMin; e <= yMax; e++) {
      yTicks.push(s('text', { x: L - 6, y: y(10 ** e) + 4, 'text-anchor': 'end' }, e === 0 ? '1' : `1e${e}`));
    }
    svg.setAttribute('viewBox', `0 0 ${width} ${H + B + T}`);
    svg.setAttribute('width', width);
    replace(svg,
      s('line', { class: 'axis', x1: L, x2: width, y1: T + H + 0.5, y2: T + H + 0.5 }),
      s('line', { class: 'axis', x1: L - 0.5, x2: L - 0.5, y1: T, y2: T + H }),
      DKS.map((d) => s('text', { x: x(d), y: T + H + 16, 'text-anchor': 'middle' }, String(d))),
      s('text', { x: L + 4, y: T + 10 }, t('gradientAxisY')),
      s('text', { x: width, y: T + H - 6, 'text-anchor': 'end' }, t('gradientAxisX')),
      yTicks, now, line('unscaled'), line('scaled'), dots('unscaled'), dots('scaled'), marks.unscaled, marks.scaled);
    const scaled = curve.map((m) => m.scaled.norm);
    svg.setAttribute('aria-label', t('gradientLabel', {
      max: MAX_DK, from: num(curve[0].unscaled.norm, 3), to: num(curve.at(-1).unscaled.norm, 3),
      low: num(Math.min(...scaled), 3), high: num(Math.max(...scaled), 3),
    }));
    axis = [yMin, yMax];
    return y;
  }
  let y = null;
  const kept = new Map(); // dk -> the model there: a few numbers, computed once per d_k
  function prepare(attn, dk) {
    if (!kept.has(dk)) kept.set(dk, temperingGradientModel(attn, { dk }));
    return kept.get(dk);
  }
  function update(attn, dk) {
    curve ??= temperingGradientCurve(attn);
    const here = prepare(attn, dk);
    const norms = curve.flatMap((m) => [m.unscaled.norm, m.scaled.norm]).concat(here.unscaled.norm, here.scaled.norm);
    const [lo, hi] = [Math.log10(Math.min(...norms)), Math.log10(Math.max(...norms))];
    const want = [Math.floor(lo), Math.max(Math.ceil(hi), Math.floor(lo) + 1)];
    if (!axis || want[0] !== axis[0] || want[1] !== axis[1]) y = draw(want);
    for (const [k, v] of [['x1', x(dk)], ['x2', x(dk)]]) now.setAttribute(k, v);
    for (const side of ['unscaled', 'scaled']) {
      marks[side].setAttribute('cx', x(dk));
      marks[side].setAttribute('cy', y(here[side].norm));
    }
    const text = t('gradientNow', { dk, unscaled: num(here.unscaled.norm, 3), scaled: num(here.scaled.norm, 3), first: num(curve[0].scaled.norm, 3) });
    const queries = t('gradientQueries', { dk, unscaled: num(here.unscaled.queries, 2), scaled: num(here.scaled.queries, 2) });
    setText(readout, `${text} ${t('gradientHow', { queries: QUERIES, count: KEYS })} ${queries}`);
    return `${text} ${queries}`;
  }
  /** Draw the plot `w` wide (at most W); true when that changed it. */
  function fit(w) {
    const next = Math.max(L + 200, Math.min(W, Math.floor(w)));
    if (next === width) return false;
    width = next;
    axis = null; // redrawn at the next update
    return true;
  }
  return { el, update, prepare, fit };
}
