// soft-dictionary.picture.js: the picture of <attention-soft-dictionary>
// without a browser (web/kit/picture/): the plane with its keys sized by
// their weights and the query, each key's weight, the soft lookup's blend
// and the Map's answer, as the figure first draws them.
import { el, text } from '../../kit/picture/svg.js';
import { bar, block, column, flow, grid, label, panel, paragraph, right, row, swatch } from '../../kit/picture/layout.js';
import { num, pcts } from '../../kit/format.js';
import { columns } from '../../kit/example-data.js';
import { softLookup, hardDictionary, keyString, largestShare, parseQuery, parseExample, ENTRIES } from './soft-dictionary.model.js';

export { parseExample as readExample };

// the figure's plane (soft-dictionary.js)
const SIZE = 300;
const C = SIZE / 2;
const UNIT = 118;
const LETTER = 7.5;
const px = ([x, y]) => [C + x * UNIT, C - y * UNIT];
const rgb = (v) => `rgb(${v.map((c) => Math.round(Math.min(1, Math.max(0, c)) * 255)).join(',')})`;
const temperatureText = (v) => (v < 0.1 ? v.toPrecision(1) : v < 10 ? v.toFixed(2) : Math.round(v).toString());

export default function picture(pen) {
  const { t } = pen;
  const entries = pen.example ?? ENTRIES;
  const q = parseQuery(pen.state.query);
  const T = pen.state.temperature;
  const { weights, result } = softLookup(pen.attn, q, T, entries);
  const [qx, qy] = px(q);
  const plane = block(SIZE, SIZE, (x, y) => {
    const at = ([a, b]) => [x + a, y + b];
    const out = [el('rect', { x, y, width: SIZE, height: SIZE, rx: 8, fill: pen.c('panel') })];
    for (const g of [-1, -0.5, 0, 0.5, 1]) {
      const [gx] = at(px([g, 0]));
      const [, gy] = at(px([0, g]));
      out.push(el('line', { x1: gx, y1: y, x2: gx, y2: y + SIZE, stroke: pen.c('border') }), el('line', { x1: x, y1: gy, x2: x + SIZE, y2: gy, stroke: pen.c('border') }));
    }
    const [sqx, sqy] = at([qx, qy]);
    entries.forEach((e, i) => {
      const [kx, ky] = at(px(e.at));
      out.push(el('line', { x1: sqx, y1: sqy, x2: kx, y2: ky, stroke: pen.c('fg'), 'stroke-linecap': 'round', 'stroke-width': 0.5 + 6 * weights[i], 'stroke-opacity': 0.15 + 0.6 * weights[i] }));
    });
    entries.forEach((e) => {
      const [kx, ky] = at(px(e.at));
      out.push(el('circle', { cx: kx, cy: ky, r: 22, fill: 'none', stroke: pen.c('muted'), 'stroke-dasharray': '2 3' }));
    });
    entries.forEach((e, i) => {
      const [kx, ky] = at(px(e.at));
      out.push(el('circle', { cx: kx, cy: ky, r: 3 + 19 * Math.sqrt(weights[i]), fill: rgb(e.value), stroke: pen.c('fg'), 'stroke-width': 1.5 }));
    });
    entries.forEach((e) => {
      const [kx, ky] = px(e.at);
      const left = kx + 14 + columns(e.name) * LETTER > SIZE;
      out.push(text({ x: x + (left ? kx - 14 : kx + 14), y: y + ky - 14, 'font-size': 12, 'text-anchor': left ? 'end' : 'start', fill: pen.c('fg') }, e.name));
    });
    out.push(el('circle', { cx: sqx, cy: sqy, r: 8, fill: pen.c('bg'), stroke: pen.c('accent'), 'stroke-width': 3 }));
    return out.join('');
  });

  const shown = pcts(weights);
  const top = largestShare(weights, entries);
  const largest = t(top.key, { share: top.share, names: top.tied?.map((i) => entries[i].name), name: entries[top.entry]?.name });
  const side = Math.min(pen.inner, 360);
  const table = grid(entries.map((e, i) => [
    row([swatch(pen, rgb(e.value), 15), label(pen, e.name, { size: 13 })], { gap: 6 }),
    bar(pen, weights[i], { width: side * 0.45 }),
    right(label(pen, shown[i], { size: 13 })),
  ]), { gap: 8, rowGap: 5 });
  const key = keyString(q);
  const hit = hardDictionary(entries).get(key);
  const soft = panel(pen, column([
    label(pen, t('softTitle'), { size: 13, bold: true }),
    row([swatch(pen, rgb(result), 36), column([
      label(pen, `(${result.map((v) => num(v)).join(', ')})`, { size: 13 }),
      paragraph(pen, largest, { size: 13, width: side - 70 }),
    ], { gap: 2 })], { gap: 8 }),
  ], { gap: 4 }), { width: side });
  const hard = panel(pen, column([
    label(pen, t('hardTitle'), { size: 13, bold: true }),
    row([hit ? swatch(pen, rgb(hit), 36) : null,
      paragraph(pen, `map.get("${key}") \u2192 ${hit ? `(${hit.map((v) => num(v)).join(', ')})` : 'undefined'}`, { size: 13, width: side - 70 })], { gap: 8 }),
    paragraph(pen, t('hardNote'), { size: 12, color: 'muted', width: side - 20 }),
  ], { gap: 4 }), { width: side });
  const info = column([
    paragraph(pen, pen.pt('setting', { name: t('temperature'), value: temperatureText(T) }), { size: 13, width: side }),
    table, soft, hard,
  ], { gap: 10 });
  return {
    body: flow([plane, info], pen.inner, { gap: 16 }),
    summary: t('summary', {
      x: num(q[0]), y: num(q[1]), T: num(T, 3), names: entries.map((e) => e.name), shares: shown, largest, map: t(hit ? 'mapFinds' : 'mapNothing'),
    }),
  };
}
