// heatmap.picture.js: the picture of <attention-heatmap> without a browser
// (web/kit/picture/): the chosen layer's heads as lines from each query
// token to the keys (BertViz's head view) and every layer and head as a
// small map; the live demo model, or the weights a src file holds (the
// command reads the file: readSource).
import { el, text } from '../../kit/picture/svg.js';
import { block, column, fit, flow, label, paragraph, row } from '../../kit/picture/layout.js';
import { pixels } from '../../kit/picture/matrix.js';
import { textWidth } from '../../kit/picture/text.js';
import { ExampleError } from '../../kit/example.js';
import { parseHeatmap, demoModel, DEMO_HEADS } from './heatmap.model.js';
import { ROW, MAX_LINE_TOKENS } from './heatmap.view.js';

const GAP = 130;
const SHOWN = 24;
const shown = (tok) => (tok.length > SHOWN ? `${tok.slice(0, SHOWN - 1)}\u2026` : tok);

/** A src file's text -> the viewer's data, or an ExampleError with the figure's words for the problem. */
export function readSource(textOfFile) {
  const r = parseHeatmap(textOfFile);
  if (!r.ok) throw new ExampleError(r.error.key, r.error.args);
  return r.data;
}

export default function picture(pen) {
  const { t } = pen;
  const off = new Set(String(pen.state.off).split(',').filter(Boolean));
  const isOff = (l, hd) => off.has(`${l + 1}.${hd + 1}`);
  const demo = !pen.source;
  const data = pen.source ?? demoModel(pen.attn, { off: [0, 1].map((l) => [0, 1, 2, 3].map((hd) => isOff(l, hd))) });
  const L = data.layers.length;
  const l = Math.min(L, pen.state.layer) - 1;
  const heads = data.layers[l];
  const token = pen.state.token < data.tokens.length ? pen.state.token : -1;
  const on = heads.map((_, hd) => !isOff(l, hd));
  const colour = (hd) => (hd < 5 ? pen.c(`head-${hd + 1}`) : `hsl(${(hd * 67) % 360} 55% 45%)`);
  const big = Math.max(data.tokens.length, data.keyTokens.length) > MAX_LINE_TOKENS && token < 0;
  const widest = (toks) => Math.max(...toks.map((tok) => textWidth(shown(tok), 12))) + 8;
  const [xl, n] = [widest(data.tokens), Math.max(data.tokens.length, data.keyTokens.length)];
  const xr = xl + GAP;
  const lines = block(xr + widest(data.keyTokens), n * ROW + 8, (x, y) => {
    const out = [];
    heads.forEach((W, hd) => {
      if (!on[hd]) return;
      for (let i = 0; i < W.rows; i++) {
        if (token >= 0 && i !== token) continue;
        for (let j = 0; j < W.cols; j++) {
          const w = W.data[i * W.cols + j];
          if (w < 0.01) continue;
          out.push(el('line', { x1: x + xl + 4, y1: y + (i + 0.5) * ROW + 4, x2: x + xr - 4, y2: y + (j + 0.5) * ROW + 4, stroke: colour(hd), 'stroke-width': 0.5 + 2.5 * w, 'stroke-opacity': 0.1 + 0.9 * w }));
        }
      }
    });
    data.tokens.forEach((tok, i) => out.push(text({ x: x + xl, y: y + (i + 0.5) * ROW + 8, 'font-size': 12, 'text-anchor': 'end', fill: pen.c(i === token ? 'accent' : 'fg'), 'font-weight': i === token ? 700 : null }, shown(tok))));
    data.keyTokens.forEach((tok, j) => out.push(text({ x: x + xr, y: y + (j + 0.5) * ROW + 8, 'font-size': 12, fill: pen.c('fg') }, shown(tok))));
    return out.join('');
  });
  const model = column(data.layers.map((hs, k) => row([
    label(pen, `L${k + 1}`, { size: 11, color: 'muted' }),
    ...hs.map((W, hd) => {
      const p = pixels(pen, W, { size: 52, max: 1 });
      return block(p.w + 4, p.h + 4, (x, y) => el('g', { opacity: isOff(k, hd) ? 0.25 : null }, p.draw(x + 2, y + 2), el('rect', { x: x + 1, y: y + 1, width: p.w + 2, height: p.h + 2, rx: 3, fill: 'none', stroke: colour(hd), 'stroke-width': 2 })));
    }),
  ], { gap: 4 })).map((r, k) => (k === l ? { ...r, draw: (x, y) => el('rect', { x: x - 2, y: y - 2, width: r.w + 4, height: r.h + 4, rx: 6, fill: pen.c('panel'), stroke: pen.c('accent') }) + r.draw(x, y) } : r)), { gap: 6 });
  const switches = flow(heads.map((_, hd) => row([
    block(12, 12, (x, y) => el('rect', { x, y, width: 12, height: 12, rx: 3, fill: colour(hd), opacity: on[hd] ? 1 : 0.3 })),
    label(pen, `${demo ? t('headRole', { n: hd + 1, role: t(DEMO_HEADS[l][hd]) }) : t('head', { n: hd + 1 })}${on[hd] ? '' : ` (${pen.pt('off')})`}`, { size: 12 }),
  ], { gap: 5 })), pen.inner, { gap: 14, rowGap: 4, align: 'middle' });
  const name = demo ? t('demoName') : pen.say(data.name);
  return {
    body: column([
      paragraph(pen, demo ? t('sourceDemo') : t('sourceData', { name: pen.say(data.name), tokens: data.tokens.length, layers: L, heads: heads.length }), { size: 12, color: 'muted', width: pen.inner }),
      ...data.warnings.map((w) => paragraph(pen, t(w.key, w.args), { size: 12, width: pen.inner })),
      L > 1 ? paragraph(pen, pen.pt('setting', { name: t('layer'), value: l + 1 }), { size: 13 }) : null,
      switches,
      flow([big ? paragraph(pen, t('tooManyLines', { n: data.tokens.length }), { size: 12, width: Math.min(pen.inner, 300) }) : fit(lines, pen.inner), model], pen.inner, { gap: 16 }),
    ], { gap: 10 }),
    summary: t('summary', { name, layer: l + 1, on: on.filter(Boolean).length, heads: heads.length, lines: token >= 0 ? t('summaryLines', { token: data.tokens[token] }) : '' }),
  };
}
