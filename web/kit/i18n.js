// i18n.js: every word a figure shows or speaks comes from a string table,
// one per figure and language (`<name>.strings.en.js`, `<name>.strings.zh.js`)
// over the shared one (figure.strings.en.js, figure.strings.zh.js):
//   export default { key: text, ... }
// A text is a string, where {name} is filled from the arguments, or a
// function of the arguments and of the language's words for lists and
// counts, `(args, { list, count }) => string` (the tables import nothing: a
// table is a chunk of its own, and a module it shared with the figures would
// be one more file for every page). Both languages hold the same keys
// (tests/kit/strings.test.js checks).
//
// A page loads only the language it shows: a figure names its tables as
// imports to make, `static strings = { en: () => import('./x.strings.en.js'),
// zh: () => import('./x.strings.zh.js') }` (a bundler puts each in a chunk of
// its own), and loadTexts() imports one language's when it is needed. What a
// figure says before that, or when it cannot load, is in loading.strings.js,
// in both languages and always underneath.
//
// The language: the element's own `lang`, else its nearest ancestor's, else
// the document's; any `zh...` tag picks Simplified Chinese, anything else
// English. A page overrides any string, per language or for all of them,
// with a JSON child (it never executes, so a strict CSP allows it):
//   <script type="application/json" data-strings>{"title": "…", "zh": {"title": "…"}}</script>
// or with the element's `strings` property, set before the figure starts.
// Overrides are plain text: {name} placeholders are filled, nothing else is
// interpreted except inline math between $…$ and **bold** where the figure
// shows the text through rich() (rich.js). Pure (no DOM, no KaTeX), so the
// models' tests read the same tables.
import loading from './loading.strings.js';
import { count, list } from './format.js';

const SHARED = { en: () => import('./figure.strings.en.js'), zh: () => import('./figure.strings.zh.js') };

export const LANGUAGES = ['en', 'zh'];

/** 'zh' or 'en' for `el`, from its own or the nearest `lang`. */
export function languageOf(el) {
  const tag = el.closest?.('[lang]')?.getAttribute('lang') ?? globalThis.document?.documentElement?.lang ?? '';
  return /^zh(\b|-|_|$)/i.test(tag) ? 'zh' : 'en';
}

/** The page's overrides for `el`: its data-strings JSON child merged with its `strings` property. */
export function overridesOf(el) {
  const script = el.querySelector?.(':scope > script[type="application/json"][data-strings]');
  const fromPage = script ? JSON.parse(script.textContent) : {};
  return [fromPage, el.strings ?? {}];
}

/** Fill {name} placeholders in `text` from `args`; an unknown name stays as written. */
export function fill(text, args = {}) {
  return text.replace(/\{(\w+)\}/g, (all, name) => (Object.hasOwn(args, name) ? String(args[name]) : all));
}

/**
 * The texts of `lang` for a figure whose tables are `tables` (as its
 * `static strings`): the shared table's, then the figure's on top.
 */
export async function loadTexts(tables, lang) {
  const [shared, own] = await Promise.all([SHARED[lang](), tables[lang]()]);
  return { ...shared.default, ...own.default };
}

/**
 * A translator for `lang` over `texts` (that language's, as loadTexts gives;
 * loading.strings.js's underneath), with `overrides` (objects as overridesOf
 * returns) on top: t(key, args) -> string. An unknown key throws: a missing
 * string is a bug.
 */
export function translator(texts, lang, overrides = []) {
  texts = { ...loading[lang], ...texts };
  for (const o of overrides) {
    if (!o || typeof o !== 'object') throw new TypeError('strings: expected an object of {key: text}');
    for (const [k, v] of Object.entries(o)) {
      if (LANGUAGES.includes(k) && v && typeof v === 'object') {
        if (k === lang) Object.assign(texts, textsOnly(v));
      } else if (typeof v === 'string') texts[k] = v;
    }
  }
  const words = { list: (items) => list(items, lang), count };
  return (key, args) => {
    const text = texts[key];
    if (text === undefined) throw new Error(`no string "${key}"`);
    return typeof text === 'function' ? text(args ?? {}, words) : fill(text, args);
  };
}

function textsOnly(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => typeof v === 'string'));
}
