// snapshot.js: a figure's picture, computed in Node: the code behind
// `attention-wasm snapshot` (attention-wasm.js) and the build's
// dist/snapshots (scripts/snapshots.mjs). It reads the figure's attributes
// through the figure's own declarations (<name>.props.js, props.js),
// computes its picture from its model and the kernels
// (<name>.picture.js, web/kit/picture/) and, for PNG, rasterizes the SVG
// with resvg (@resvg/resvg-js) given fonts found on this system.
// Every problem with what it is asked is a SnapshotError: one sentence
// naming the argument (the command exits with status 2).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { FIGURES } from '../web/figures/registry.js';
import { loadAttention } from '../web/attention.js';
import { loadTexts, translator } from '../web/kit/i18n.js';
import { readProp } from '../web/kit/props.js';
import { ExampleError } from '../web/kit/example.js';
import { frame, makePen, MIN_WIDTH, MAX_WIDTH } from '../web/kit/picture/picture.js';

/** A request the command cannot carry out, said in one sentence; exit status 2. */
export class SnapshotError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SnapshotError';
  }
}

export const LANGS = { en: 'en', 'zh-CN': 'zh' };
export const THEMES = ['light', 'dark'];
export const FORMATS = ['svg', 'png'];
export const DEFAULT_WIDTH = 720;
/** The command's own options: no figure may have an attribute of these names. */
export const OPTIONS = ['example', 'lang', 'theme', 'format', 'width', 'out', 'help'];

const PICTURE_STRINGS = { en: () => import('../web/kit/picture/picture.strings.en.js'), zh: () => import('../web/kit/picture/picture.strings.zh.js') };
const tablesOf = (name) => ({
  en: () => import(`../web/figures/${name}/${name}.strings.en.js`),
  zh: () => import(`../web/figures/${name}/${name}.strings.zh.js`),
});

/** The registry's figure called `name` (or by its tag), else a SnapshotError listing them. */
export function figureNamed(name) {
  const f = FIGURES.find((x) => x.name === name || x.tag === name);
  if (!f) throw new SnapshotError(`There is no figure "${name}"; the figures are ${FIGURES.map((x) => x.name).join(', ')}.`);
  return f;
}

/** A figure's attribute declarations and its picture module. */
export async function figureModules(name) {
  const [{ props }, picture] = await Promise.all([
    import(`../web/figures/${name}/${name}.props.js`),
    import(`../web/figures/${name}/${name}.picture.js`),
  ]);
  return { props, picture };
}

const describeProp = (name, p) => (p.type === 'number' ? `a number from ${p.min} to ${p.max}`
  : p.type === 'enum' ? `one of ${p.values.map((v) => `"${v}"`).join(', ')}`
    : p.type === 'boolean' ? '"true" or "false"'
      : p.default ? `text like its default, ${JSON.stringify(p.default)}` : `text in the form web/figures/${name}/README.md gives`);

/** The figure's state from `attrs` ({name: text}), each read as the figure reads it; a SnapshotError for any it cannot use. */
export function stateOf(name, props, attrs) {
  const state = Object.fromEntries(Object.entries(props).map(([k, p]) => [k, p.default]));
  for (const [key, text] of Object.entries(attrs)) {
    const p = props[key];
    if (!p) {
      const names = Object.keys(props);
      throw new SnapshotError(`The figure ${name} has no attribute --${key}; ${names.length ? `its attributes are ${names.map((k) => `--${k}`).join(', ')}` : 'it has none'}.`);
    }
    const r = readProp(p, text);
    if (r.problem) throw new SnapshotError(`--${key} of ${name} takes ${describeProp(name, p)}, not ${JSON.stringify(String(text))}.`);
    state[key] = r.value;
  }
  return state;
}

const engines = new Map(); // build -> the engine, loaded once
const engineFor = (options = {}) => {
  const key = JSON.stringify(options);
  if (!engines.has(key)) engines.set(key, loadAttention(options));
  return engines.get(key);
};

/**
 * Draw figure `figure` (a registry name or tag) as SVG: {svg, summary, title,
 * width, height}. attrs: {attribute: text}; example: the page's example as
 * parsed JSON (undefined: none), `exampleName` naming it in errors;
 * lang 'en' or 'zh-CN'; theme 'light' or 'dark'; width in px.
 */
export async function drawSvg({ figure, attrs = {}, example, exampleName = 'the example', lang = 'en', theme = 'light', width = DEFAULT_WIDTH }) {
  const f = figureNamed(figure);
  if (!Object.hasOwn(LANGS, lang)) throw new SnapshotError(`--lang takes en or zh-CN, not ${JSON.stringify(lang)}.`);
  if (!THEMES.includes(theme)) throw new SnapshotError(`--theme takes light or dark, not ${JSON.stringify(theme)}.`);
  if (!(Number.isInteger(width) && width >= MIN_WIDTH && width <= MAX_WIDTH)) {
    throw new SnapshotError(`--width takes a whole number of pixels from ${MIN_WIDTH} to ${MAX_WIDTH}, not ${JSON.stringify(String(width))}.`);
  }
  const { props, picture } = await figureModules(f.name);
  const state = stateOf(f.name, props, attrs);
  const code = LANGS[lang];
  const [texts, pictureTexts, english] = await Promise.all([loadTexts(tablesOf(f.name), code), PICTURE_STRINGS[code](), loadTexts(tablesOf(f.name), 'en')]);
  let data = null;
  if (example !== undefined) {
    if (!f.example) throw new SnapshotError(`The figure ${f.name} takes no example (the figures that do: ${FIGURES.filter((x) => x.example).map((x) => x.name).join(', ')}).`);
    try {
      data = picture.readExample(example);
    } catch (err) {
      if (!(err instanceof ExampleError)) throw err;
      // worded by the figure's own table, in English (the command's language)
      const say = makePen({ t: translator(english, 'en') }).say;
      throw new SnapshotError(`${exampleName} cannot be ${f.name}'s example: ${say([err.key, err.args])}.`);
    }
  }
  // a src attribute names a file: in a page the figure fetches it, here it is read from disk
  let source = null;
  if (state.src && picture.readSource) {
    let text;
    try {
      text = readFileSync(state.src, 'utf8');
    } catch (err) {
      throw new SnapshotError(`--src: cannot read ${state.src} (${err.code ?? err.message}).`);
    }
    try {
      source = { ...picture.readSource(text), name: state.src };
    } catch (err) {
      if (!(err instanceof ExampleError)) throw err;
      const say = makePen({ t: translator(english, 'en') }).say;
      throw new SnapshotError(`--src: ${state.src} cannot be shown: ${say([err.key, err.args])}.`);
    }
  }
  const attn = await engineFor();
  const pen = makePen({ attn, load: engineFor, state, example: data, source, t: translator(texts, code), pt: translator(pictureTexts.default, code), lang: code, theme, width });
  const drawn = await picture.default(pen);
  const svg = frame(pen, pen.t('title'), drawn);
  const [, w, h] = svg.match(/^<svg[^>]* width="(\d+)" height="(\d+)"/);
  return { svg, summary: drawn.summary, title: pen.t('title'), width: Number(w), height: Number(h) };
}

// ---- PNG ---------------------------------------------------------------------

const FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts', join(homedir(), '.fonts'), join(homedir(), '.local/share/fonts'),
  '/Library/Fonts', '/System/Library/Fonts', join(homedir(), 'Library/Fonts'), 'C:\\Windows\\Fonts'];
// Latin: the font the pictures are laid out with first (web/kit/picture/widths.js), then fonts no wider
const LATIN = [/^DejaVuSans(-Bold)?\.ttf$/i, /^Verdana(b|Bold)?\.ttf$/i, /^LiberationSans-(Regular|Bold)\.ttf$/i, /^Arial(bd| Bold)?\.ttf$/i, /^NotoSans-(Regular|Bold)\.ttf$/i];
const CJK = [/^wqy-microhei\.ttc$/i, /^wqy-zenhei\.ttc$/i, /^NotoSansCJK.*-Regular\.tt[cf]$/i, /^NotoSans(CJK)?SC-Regular\.otf$/i, /^SourceHanSans(SC|CN)?-Regular\.(otf|ttc)$/i, /^PingFang\.ttc$/i, /^msyh\.tt[cf]$/i, /^simhei\.ttf$/i];

let fontFiles = null;
/** The font files on this system, by name (a walk of the usual font folders, once). */
function systemFonts() {
  if (fontFiles) return fontFiles;
  fontFiles = [];
  const walk = (dir, depth) => {
    let names;
    try { names = readdirSync(dir); } catch { return; }
    for (const n of names) {
      const p = join(dir, n);
      let st;
      try { st = statSync(p); } catch { continue; }
      if (st.isDirectory() && depth < 6) walk(p, depth + 1);
      else if (/\.(ttf|otf|ttc)$/i.test(n)) fontFiles.push(p);
    }
  };
  for (const d of FONT_DIRS) walk(d, 0);
  return fontFiles;
}
/** The files of the first family of `patterns` that this system has. */
function firstOf(patterns) {
  for (const re of patterns) {
    const found = systemFonts().filter((p) => re.test(basename(p)));
    if (found.length) return found;
  }
  return [];
}

/**
 * The fonts a PNG is drawn with: the Latin font the pictures are laid out
 * with (DejaVu Sans) or one no wider, and for Chinese a CJK font. A Chinese
 * PNG without a CJK font, or any PNG without a Latin one, is a SnapshotError:
 * its text would be missing. (An SVG names the fonts and leaves them to
 * whatever shows it.)
 */
export function pngFonts(lang) {
  const latin = firstOf(LATIN);
  if (!latin.length) throw new SnapshotError('A PNG needs a font for its text and none of DejaVu Sans, Verdana, Liberation Sans, Arial or Noto Sans was found (on Debian: apt-get install fonts-dejavu-core); an SVG needs none.');
  const cjk = lang === 'zh-CN' ? firstOf(CJK) : [];
  if (lang === 'zh-CN' && !cjk.length) {
    throw new SnapshotError('A Chinese PNG needs a CJK font and none of WenQuanYi Micro Hei, Noto Sans CJK, Source Han Sans, PingFang or Microsoft YaHei was found (on Debian: apt-get install fonts-wqy-microhei); an SVG needs none.');
  }
  return [...latin, ...cjk.slice(0, 1)];
}

let Resvg = null;
/** The SVG as a PNG `width` px wide (its height in proportion), with fonts from pngFonts. */
export async function rasterize(svg, { width, lang = 'en' }) {
  if (!Resvg) {
    try {
      ({ Resvg } = await import('@resvg/resvg-js'));
    } catch {
      throw new SnapshotError('--format png needs the rasterizer @resvg/resvg-js (npm install @resvg/resvg-js); --format svg needs nothing more.');
    }
  }
  const fonts = pngFonts(lang);
  const r = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false, fontFiles: fonts, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return r.render().asPng();
}

/** snapshot(options as drawSvg's, plus format) -> {data: string (svg) or Buffer (png), ...drawSvg's}. */
export async function snapshot({ format = 'svg', ...options }) {
  if (!FORMATS.includes(format)) throw new SnapshotError(`--format takes svg or png, not ${JSON.stringify(format)}.`);
  const drawn = await drawSvg(options);
  const data = format === 'png' ? await rasterize(drawn.svg, { width: drawn.width, lang: options.lang }) : drawn.svg;
  return { ...drawn, data };
}
