// tiny-gpt.picture.js: the picture of <attention-tiny-gpt> without a browser
// (web/kit/picture/): the figure before Start, with its model untrained
// (600 steps take seconds, in the reader's browser): the status, the loss
// plot's axes, what the untrained model writes with each decoding and
// where its heads look in the text it reads, as the worker answers them
// (tiny-gpt.worker.js) before any training.
import { el, text } from '../../kit/picture/svg.js';
import { block, column, flow, label, panel, paragraph, setting } from '../../kit/picture/layout.js';
import { hex, pixels } from '../../kit/picture/matrix.js';
import { legend, lossPlot } from '../../kit/picture/plot.js';
import { textWidth } from '../../kit/picture/text.js';
import { labelFor, maxAbs, rgbColor } from '../../kit/draw/scale.js';
import { simdSupported } from '../../api/load.js';
import { attentionOn, decodings, ALPHABET, DEFAULTS } from './tiny-gpt.model.js';

const UNIFORM = Math.log(ALPHABET.length);
const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '\u2013');
const STRATEGIES = ['greedy', 'sample', 'beam'];

// the characters read, each on the colour of the query's weight on it (tiny-gpt.js's .chars)
function chars(pen, text_, row, q) {
  const w = 11;
  const top1 = maxAbs(row);
  const perLine = Math.max(8, Math.floor(pen.inner / w));
  const lines = Math.ceil(text_.length / perLine);
  return block(Math.min(text_.length, perLine) * w, lines * 22, (x, y) => [...text_].map((c, i) => {
    const [cx, cy] = [x + (i % perLine) * w, y + Math.floor(i / perLine) * 22];
    const rgb = rgbColor(row[i], top1, pen.scale);
    return el('rect', { x: cx, y: cy, width: w, height: 20, fill: hex(rgb) })
      + (i === q ? el('rect', { x: cx, y: cy + 18, width: w, height: 2, fill: pen.c('accent') }) : '')
      + (c === ' ' ? '' : text({ x: cx + w / 2, y: cy + 15, 'font-size': 13, 'font-family': pen.pt('mono'), 'text-anchor': 'middle', fill: labelFor(rgb), 'font-weight': i === q ? 700 : null }, c));
  }).join(''));
}

// a decoding as the figure shows it: its name, how it decodes, the prompt and what it wrote, its log-probability
function decoding(pen, key, d, prompt, width) {
  const { t } = pen;
  const knobs = { t: DEFAULTS.temperature, w: DEFAULTS.beam };
  const perLine = Math.max(10, Math.floor((width - 20) / textWidth('m', 13)));
  const all = prompt + d.text;
  const lines = [];
  for (let k = 0; k < all.length; k += perLine) lines.push(all.slice(k, k + perLine));
  const mono = block(width - 20, lines.length * 20, (x, y) => lines.map((l, i) => text({ x, y: y + 15 + i * 20, 'font-size': 13, 'font-family': pen.pt('mono'), fill: pen.c('fg'), 'xml:space': 'preserve' }, l)).join(''));
  return panel(pen, column([
    label(pen, t(key, knobs), { size: 12, bold: true }),
    paragraph(pen, t(`${key}How`, knobs), { size: 11, color: 'muted', width: width - 20 }),
    mono,
    paragraph(pen, t('logProb', { lp: d.logProb.toFixed(1), per: (d.logProb / d.text.length).toFixed(2) }), { size: 11, color: 'muted', width: width - 20 }),
  ], { gap: 3 }), { width, pad: 10 });
}

export default async function picture(pen) {
  const { t } = pen;
  // the worker trains on the SIMD build (tiny-gpt.js): the same numbers here
  const attn = await pen.load({ build: simdSupported() ? 'simd' : 'scalar' });
  const model = attn.createTransformer({
    vocab: ALPHABET.length, context: DEFAULTS.context, dModel: DEFAULTS.dModel, heads: DEFAULTS.heads, layers: DEFAULTS.layers,
    mlp: true, layerNorm: true, seed: pen.state.seed,
  });
  try {
    const written = decodings(model, pen.state.prompt, { temperature: DEFAULTS.temperature });
    const view = attentionOn(model, pen.state.text);
    const layer = Number(pen.state.layer) - 1;
    const head = Number(pen.state.head) - 1;
    const parts = [];
    if (view) {
      const n = view.chars.length;
      const at = pen.state.at;
      const q = at >= 1 && at <= n ? at - 1 : n - 1;
      const W = view.attention[layer][head];
      const row = Array.from(W.data.subarray(q * n, q * n + n));
      const top = [...row.keys()].sort((x, y) => row[y] - row[x]).slice(0, 3).filter((j) => row[j] > 0.05);
      parts.push(
        chars(pen, view.chars, row, q),
        paragraph(pen, t('readout', { l: layer + 1, h: head + 1, c: view.chars[q], at: q + 1,
          looks: top.map((j) => t('look', { c: view.chars[j], where: j === q ? t('itself') : t('back', { k: q - j }), w: fmt(row[j]) })) }), { size: 12, color: 'muted', width: pen.inner }),
        pixels(pen, W, { size: Math.min(220, pen.inner), max: 1 }),
      );
    } else {
      parts.push(paragraph(pen, t(pen.state.text ? 'textNone' : 'textEmpty'), { size: 12, color: 'muted', width: pen.inner }));
    }
    const decW = pen.inner >= 600 ? Math.floor((pen.inner - 20) / 3) : pen.inner;
    return {
      body: column([
        paragraph(pen, t('status', { step: 0, steps: pen.state.steps, time: '0.0 s', rate: '', state: t('idle'), losses: '' }), { size: 13, width: pen.inner }),
        legend(pen, [{ colour: 'key', name: t('legendTrain') }, { colour: 'head-1', name: t('legendHeld') }, { colour: 'muted', name: t('legendBigram'), dashed: true }], pen.inner),
        lossPlot(pen, {
          width: Math.max(280, Math.min(560, Math.round(pen.inner))), steps: pen.state.steps, yMax: 4, stepAxis: t('stepAxis'), lossAxis: t('lossAxis'),
          references: [{ value: UNIFORM, label: t('uniform', { n: ALPHABET.length, value: UNIFORM.toFixed(2) }) }],
        }),
        label(pen, t('decodeHeading'), { size: 13, bold: true }),
        setting(pen, t('prompt'), pen.state.prompt),
        flow(STRATEGIES.map((key) => decoding(pen, key, written[key], written.prompt, decW)), pen.inner, { gap: 10 }),
        label(pen, t('attendHeading'), { size: 13, bold: true }),
        paragraph(pen, `${pen.pt('setting', { name: t('layer'), value: layer + 1 })} \u00b7 ${pen.pt('setting', { name: t('head'), value: head + 1 })}`, { size: 13, width: pen.inner }),
        ...parts,
      ], { gap: 10 }),
      notes: [pen.pt('untrained')],
      summary: t('summary', { step: 0, steps: pen.state.steps, state: t('summaryIdle'), losses: '', loading: '' }),
    };
  } finally {
    model.dispose();
  }
}
