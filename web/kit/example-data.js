// example-data.js: the checks the models' parseExample functions share. Each
// throws an ExampleError (example.js) with one of these keys, which every
// figure that takes a page's example holds in its string table:
// exampleNotObject {fields}, exampleList {field, min, max, got},
// exampleCount {field, want, like, got}, exampleNumbers {where, want, lo, hi},
// exampleLabel {where, max, half}, exampleRepeat {where}. Pure (Node tests).
import { ExampleError } from './example.js';

/** `data` as a plain object holding `fields` (names listed for the message). */
export function object(data, fields) {
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new ExampleError('exampleNotObject', { fields: fields.join(', ') });
  return data;
}

/** data[field] as a list of min..max entries. */
export function listOf(data, field, min, max) {
  const v = data[field];
  if (!Array.isArray(v) || v.length < min || v.length > max) throw new ExampleError('exampleList', { field, min, max, got: Array.isArray(v) ? v.length : 0 });
  return v;
}

/** data[field] as a list with exactly as many entries as data[like]. */
export function matching(data, field, like) {
  const v = data[field];
  const want = data[like].length;
  if (!Array.isArray(v) || v.length !== want) throw new ExampleError('exampleCount', { field, want, like, got: Array.isArray(v) ? v.length : 0 });
  return v;
}

/** `v` (called `where` in the message) as `want` finite numbers in [lo, hi]. */
export function numbers(v, where, want, lo, hi) {
  const ok = Array.isArray(v) && v.length === want && v.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi);
  if (!ok) throw new ExampleError('exampleNumbers', { where, want, lo, hi });
  return v.slice();
}

// East Asian wide characters (CJK, kana, hangul, full-width forms) take about two Latin letters' room.
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
/** How many Latin letters' room `text` takes. */
export const columns = (text) => [...text].reduce((n, ch) => n + (WIDE.test(ch) ? 2 : 1), 0);

/** `v` as a label of 1..max columns (trimmed; a wide character counts twice); a longer one is refused, so no layout has to fit it. */
export function label(v, where, max) {
  const text = typeof v === 'string' ? v.trim() : '';
  if (text === '' || columns(text) > max) throw new ExampleError('exampleLabel', { where, max, half: max / 2 });
  return text;
}

/** Throw exampleRepeat at the first of `texts` (named field[i]) that repeats an earlier one. */
export function distinct(texts, field) {
  const i = texts.findIndex((t, k) => texts.indexOf(t) !== k);
  if (i >= 0) throw new ExampleError('exampleRepeat', { where: `${field}[${i}]` });
}
