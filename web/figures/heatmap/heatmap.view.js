// heatmap.view.js: the drawings of attention-heatmap. Tokens are only ever
// text nodes (textContent), never markup, whatever a JSON file holds.
import { h, s, setAttr } from '../../kit/dom.js';
import { paintMatrix } from '../../kit/draw/scale-canvas.js';
import { cssRgb, rgbText } from '../../kit/draw/colors.js';
import { paintLines } from '../../kit/draw/drawing.js';

export const ROW = 24; // a query token is a 24 px target (WCAG 2.5.8) that a finger can pick
export const MAX_LINE_TOKENS = 120;
const CHAR = 7; // px per character of a 12px label
const painted = new WeakMap(); // a thumbnail's canvas -> {M, colors} it shows
const SHOWN = 24; // characters of a token shown; the whole token is in its tooltip, and below the view once tapped or focused
const GAP = 130; // room for the lines between the two columns

const shown = (t) => (t.length > SHOWN ? `${t.slice(0, SHOWN - 1)}\u2026` : t);
const widest = (tokens) => Math.max(...tokens.map((t) => shown(t).length)) * CHAR + 8;
// A token as SVG text: its characters only ever become a text node.
function label(t, attrs) {
  const el = s('text', attrs, shown(t));
  if (shown(t) !== t) el.append(s('title', {}, t));
  return el;
}
export const headColor = (hd) => `var(--attention-head-${hd + 1}, hsl(${(hd * 67) % 360} 55% 45%))`;

/**
 * BertViz-style head view (`t`: the figure's translator): queries on the
 * left, keys on the right, made once for a pair of token lists;
 * update({weights, on, token, root}) draws a line per weight (>= 0.01) in
 * the head's colour, or with `token` >= 0 only that query's lines. The
 * lines are painted on a canvas under the tokens: a change of heads or of
 * the query redraws a few hundred of them, which as SVG elements the
 * browser would rebuild, restyle and lay out. onpick(i) when a query token
 * is clicked or chosen by key.
 */
export function headView({ t: tr, tokens, keyTokens, onpick }) {
  const n = Math.max(tokens.length, keyTokens.length);
  const height = n * ROW + 8;
  const xl = widest(tokens);
  const xr = xl + GAP;
  const width = xr + widest(keyTokens);
  let token = -1;
  // each query: its label over a transparent row as wide as the label's column, which takes the taps
  const queries = tokens.map((t, i) => label(t, { x: xl, y: (i + 0.5) * ROW + 4, 'text-anchor': 'end', class: 'q' }));
  const targets = queries.map((q, i) => {
    const g = s('g', { class: 'qrow', tabindex: 0, role: 'button', 'data-key': `q-${i}`, 'aria-label': tr('queryLabel', { n: i + 1, token: tokens[i] }) },
      [s('rect', { x: 0, y: i * ROW + 4, width: xl + 4, height: ROW }), q]);
    g.addEventListener('click', () => onpick(i === token ? -1 : i));
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); onpick(i === token ? -1 : i); }
    });
    return g;
  });
  const keys = keyTokens.map((t, j) => label(t, { x: xr, y: (j + 0.5) * ROW + 4, class: 'k' }));
  const svg = s('svg', { class: 'headview', viewBox: `0 0 ${width} ${height}`, width, role: 'group', 'aria-label': tr('linesLabel') }, [...targets, ...keys]);
  const canvas = h('canvas', { 'aria-hidden': 'true' });
  // A token cut short: a mouse shows it whole in the tooltip; a tap or the
  // keyboard (a key's label takes focus for it) shows it whole below the view.
  const whole = h('p', { class: 'note whole', 'aria-live': 'polite' });
  const cut = (t) => shown(t) !== t;
  const showWhole = (t) => { whole.textContent = tr('wholeToken', { token: t }); };
  targets.forEach((g, i) => {
    if (!cut(tokens[i])) return;
    g.addEventListener('click', () => showWhole(tokens[i]));
    g.addEventListener('focus', () => showWhole(tokens[i]));
  });
  keys.forEach((k, j) => {
    if (!cut(keyTokens[j])) return;
    k.setAttribute('tabindex', 0);
    k.setAttribute('aria-label', keyTokens[j]);
    k.addEventListener('click', () => showWhole(keyTokens[j]));
    k.addEventListener('focus', () => showWhole(keyTokens[j]));
  });
  const el = h('div', {}, [h('div', { class: 'layered' }, [canvas, svg]), whole]);

  function update({ weights, on, token: picked, root }) {
    token = picked;
    queries.forEach((q, i) => q.classList.toggle('sel', i === token));
    const items = [];
    weights.forEach((W, hd) => {
      if (!on[hd]) return;
      const stroke = rgbText(cssRgb(root, headColor(hd)));
      for (let i = 0; i < W.rows; i++) {
        if (token >= 0 && i !== token) continue;
        for (let j = 0; j < W.cols; j++) {
          const w = W.data[i * W.cols + j];
          if (w < 0.01) continue;
          items.push({ kind: 'line', x1: xl + 4, y1: (i + 0.5) * ROW + 4, x2: xr - 4, y2: (j + 0.5) * ROW + 4,
            stroke, lineWidth: 0.5 + 2.5 * w, opacity: 0.1 + 0.9 * w });
        }
      }
    });
    paintLines(canvas, items, width, height);
  }
  return { el, update };
}

/**
 * Model view: every layer x head as a small heatmap, made once for a shape
 * (heads per layer) and repainted by update({layers, colors, off, layer});
 * onpick(layer) selects a layer.
 */
export function modelView(t, shape, onpick) {
  const rows = shape.map((heads, l) => {
    const cells = Array.from({ length: heads }, (_, hd) => h('canvas', { class: 'thumb', style: `border-color:${headColor(hd)}` }));
    const el = h('div', { class: 'layer' }, [
      h('span', { class: 'lab' }, `L${l + 1}`),
      ...cells.map((canvas, hd) => h('button', { type: 'button', class: 'cell', 'aria-label': t('cellLabel', { layer: l + 1, head: hd + 1 }), 'data-key': `cell-${l}-${hd}`, onclick: () => onpick(l) }, canvas)),
    ]);
    return { el, cells };
  });
  return {
    el: h('div', { class: 'grid', role: 'group', 'aria-label': t('gridLabel') }, rows.map((r) => r.el)),
    update({ layers, colors, off, layer }) {
      rows.forEach((r, l) => {
        r.el.classList.toggle('sel', l === layer);
        // (the shown layer's cells say so to a screen reader as its class shows it)
        for (const b of r.el.querySelectorAll('button')) setAttr(b, 'aria-current', l === layer);
        r.cells.forEach((canvas, hd) => {
          canvas.classList.toggle('off', off(l, hd));
          // (a file's weights do not change: a thumbnail is painted again only for other weights or colours)
          const [M, was] = [layers[l][hd], painted.get(canvas)];
          if (was?.M === M && was.colors === colors) return;
          painted.set(canvas, { M, colors });
          paintMatrix(canvas, M, colors, 1);
        });
      });
    },
  };
}
