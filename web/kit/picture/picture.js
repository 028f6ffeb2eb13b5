// picture.js: a figure's picture, drawn without a browser. A figure's
// <name>.picture.js exports picture(pen) -> {body, summary, notes?}: a block
// (layout.js) of its main drawing and key numbers, computed from its model
// with the kernels, and its own summary (what its live region says); this
// file frames it as one SVG: its title, the body, notes, and the summary as
// <desc>. The pen holds what a picture draws with:
//   pen.attn     the engine (loadAttention: the best build here)
//   pen.load     load(options) -> another engine (a figure that trains on one build asks for it)
//   pen.state    the figure's state, from its props (props.js) and the given attributes
//   pen.example  the page's example as the figure's useExample reads it, or null
//   pen.source   what a figure's src attribute names, read by the command (heatmap's weights), or null
//   pen.t        the figure's words in the picture's language (its string tables)
//   pen.pt       the pictures' own words (picture.strings.<lang>.js)
//   pen.say      a text or [key, args] of the figure's table, as FigureElement.say
//   pen.lang     'en' or 'zh'
//   pen.c(key)   a colour of the theme's palette (colors.js), as #rrggbb
//   pen.scale    the colour scale's three colours as [r, g, b] (scale.js's theme)
//   pen.width    the picture's width in px; pen.inner the width inside its padding
import { PALETTE } from '../draw/colors.js';
import { el, esc } from './svg.js';
import { column, fit, paragraph } from './layout.js';

const PAD = 14;
const [TITLE_ID, DESC_ID] = ['picture-title', 'picture-desc'];
export const MIN_WIDTH = 280;
export const MAX_WIDTH = 2400;

const rgbOf = (hexText) => [1, 3, 5].map((k) => parseInt(hexText.slice(k, k + 2), 16));

/** The pen for a picture (see above); `t` and `pt` are translators (i18n.js). */
export function makePen({ attn, load, state, example = null, source = null, t, pt, lang = 'en', theme = 'light', width = 720 }) {
  const colours = PALETTE[theme];
  const say = (text) => {
    if (!Array.isArray(text)) return text;
    const [key, args = {}] = text;
    return t(key, Object.fromEntries(Object.entries(args).map(([k, v]) => [k, Array.isArray(v) ? say(v) : v])));
  };
  return {
    attn, load, state, example, source, t, pt, say, lang, theme, width,
    inner: width - 2 * PAD,
    c: (key) => {
      if (!colours[key]) throw new RangeError(`picture: no colour "${key}" in the palette`);
      return colours[key];
    },
    scale: { zero: rgbOf(colours.zero), positive: rgbOf(colours.positive), negative: rgbOf(colours.negative) },
  };
}

/**
 * The SVG of a picture: `drawn` ({body, summary, notes}) framed with the
 * figure's `title`: background and border in the theme's colours, real
 * text in the pictures' fonts, <title> and <desc> (the summary) for
 * whoever cannot see it.
 */
export function frame(pen, title, { body, summary, notes = [] }) {
  const inner = pen.inner;
  const content = column([
    paragraph(pen, title, { size: 15, bold: true, width: inner }),
    fit(body, inner), // (a drawing wider than the picture is scaled down, never cut)
    ...notes.filter(Boolean).map((n) => paragraph(pen, n, { size: 12, color: 'muted', width: inner })),
  ], { gap: 10 });
  const w = pen.width;
  const h = Math.ceil(content.h + 2 * PAD);
  const lang = pen.lang === 'zh' ? 'zh-CN' : 'en';
  return el('svg', {
    xmlns: 'http://www.w3.org/2000/svg', width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: 'img',
    'aria-labelledby': `${TITLE_ID} ${DESC_ID}`, lang, 'xml:lang': lang, 'font-family': pen.pt('font'),
  },
  el('title', { id: TITLE_ID }, esc(title)),
  el('desc', { id: DESC_ID }, esc(summary)),
  el('rect', { x: 0.5, y: 0.5, width: w - 1, height: h - 1, rx: 10, fill: pen.c('bg'), stroke: pen.c('border') }),
  content.draw(PAD, PAD)) + '\n';
}
