// as-conv.picture.js: the picture of <attention-as-conv> without a browser
// (web/kit/picture/): the padded input and the layer's output with a line
// from each output to the inputs its heads attend to, attention's Y beside
// the direct convolution, and how far apart they are.
import { el, text } from '../../kit/picture/svg.js';
import { block, column, fit, flow, paragraph } from '../../kit/picture/layout.js';
import { hex, matrix } from '../../kit/picture/matrix.js';
import { labelFor, rgbColor } from '../../kit/draw/scale.js';
import { num, gap } from '../../kit/format.js';
import { convModel } from './as-conv.model.js';
import { parseKernel, SIGNALS } from './as-conv.props.js';

const [W, H] = [560, 190];
const temperatureText = (v) => (v < 0.01 ? v.toFixed(3) : v < 1 ? v.toFixed(2) : v.toFixed(1));

export default function picture(pen) {
  const { t } = pen;
  const k = Number(pen.state.k);
  const kernel = parseKernel(pen.state.kernel, k);
  const signal = SIGNALS[pen.state.signal];
  const m = convModel(pen.attn, { x: signal.map((v) => [v]), K: kernel.map((w) => [[w]]), b: [0], temperature: pen.state.temperature });
  const Y = [m.Y.map((y) => y[0])];
  const D = [m.direct.map((y) => y[0])];
  const max = Math.max(1e-9, ...signal.map(Math.abs), ...Y[0].map(Math.abs), ...D[0].map(Math.abs));
  const step = W / (m.P + 1);
  const xAt = (p) => step * (p + 1);
  const [yIn, yOut, box] = [34, 150, Math.min(30, step - 6)];
  const padded = [...new Array(m.pad).fill(0), ...signal, ...new Array(m.pad).fill(0)];
  const diagram = block(W, H, (x, y) => {
    const out = [];
    m.weights.forEach((Wh, r) => {
      const stroke = pen.c(`head-${r + 1}`);
      for (let q = 0; q < m.N * m.P; q++) {
        const w = Wh.data[q];
        if (w < 0.01) continue;
        out.push(el('line', { x1: x + xAt(Math.floor(q / m.P) + m.pad), y1: y + yOut - box / 2, x2: x + xAt(q % m.P), y2: y + yIn + box / 2, stroke, 'stroke-opacity': Math.min(1, 0.15 + w), 'stroke-width': 0.4 + 2.6 * w }));
      }
    });
    const cell = (cx, cy, v, dashed) => {
      const rgb = rgbColor(v, max, pen.scale);
      return el('rect', { x: x + cx - box / 2, y: y + cy - box / 2, width: box, height: box, rx: 3, fill: hex(rgb), stroke: pen.c('border'), 'stroke-dasharray': dashed ? '3 2' : null })
        + text({ x: x + cx, y: y + cy + 3.5, 'font-size': 10, 'text-anchor': 'middle', fill: labelFor(rgb) }, num(v, 1));
    };
    padded.forEach((v, p) => out.push(cell(xAt(p), yIn, v, p < m.pad || p >= m.pad + m.N)));
    m.Y.forEach((yv, i) => out.push(cell(xAt(i + m.pad), yOut, yv[0], false)));
    out.push(text({ x, y: y + 10, 'font-size': 11, fill: pen.c('muted') }, t('inputPadded')), text({ x, y: y + 182, 'font-size': 11, fill: pen.c('muted') }, t('output')));
    return out.join('');
  });
  const limit = t(m.hard ? 'hard' : 'soft');
  const difference = gap(m.maxDiff);
  const taps = kernel.map((w, r) => `w${r + 1} = ${num(w)}`).join(', ');
  return {
    body: column([
      paragraph(pen, [[t('signal'), t(pen.state.signal)], [t('kernelSize'), k], [t('temperature'), temperatureText(pen.state.temperature)]]
        .map(([name, value]) => pen.pt('setting', { name, value })).join(' \u00b7 '), { size: 13, width: pen.inner }),
      paragraph(pen, taps, { size: 13, width: pen.inner }),
      fit(diagram, pen.inner),
      flow([matrix(pen, Y, { name: t('attentionY'), cell: 44, values: true, max }), matrix(pen, D, { name: t('direct'), cell: 44, values: true, max })], pen.inner, { gap: 18 }),
      paragraph(pen, `${t('check', { difference, limit })}${m.hard ? ' \u2714' : ''}`, { size: 13, width: pen.inner }),
      paragraph(pen, t('scale', { max: num(max) }), { size: 12, color: 'muted', width: pen.inner }),
    ], { gap: 10 }),
    summary: t('summary', { k: m.k, temperature: num(pen.state.temperature, 3), difference, limit }),
  };
}
