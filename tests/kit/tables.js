// tables.js: a figure's words for the models' tests, as the figure has them
// in each language (web/kit/i18n.js's loadTexts: the shared table's, then
// its own): {en: {key: text}, zh: {key: text}}.
import { LANGUAGES, loadTexts } from '../../web/kit/i18n.js';

const FIGURES = new URL('../../web/figures/', import.meta.url);

/** The words of the figure `name` (its folder under web/figures/), in every language. */
export async function tablesOf(name) {
  const tables = Object.fromEntries(LANGUAGES.map((lang) => [lang, () => import(new URL(`${name}/${name}.strings.${lang}.js`, FIGURES))]));
  return Object.fromEntries(await Promise.all(LANGUAGES.map(async (lang) => [lang, await loadTexts(tables, lang)])));
}
