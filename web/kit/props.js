// props.js: what an attribute's text means to a figure. A figure declares
// its attributes (`static props`, from its <name>.props.js) as
// {type: 'number' | 'boolean' | 'enum' | 'string', default, ...}:
// numbers are clamped to [min, max] and, with `integer: true`, rounded (or
// moved to the nearest allowed value by `snap(v)`); enums keep only one of
// `values`; strings go through `normalize(text)`, which returns the
// canonical text of a value the figure can use, or null for text it
// cannot (the figure then shows the default). Pure: the elements
// (figure-element.js) and the pictures drawn without a browser
// (bin/snapshot.js) read attributes through the same two functions.
import { attrNumber } from './format.js';

/** A number as a link writes it (six significant digits), so a link restores exactly this state. */
export const linkNumber = (v) => +v.toPrecision(6);

/** The state `prop` takes from an attribute's text (null: the attribute is absent); never throws. */
export function parseProp(prop, value) {
  if (value === null) return prop.default;
  if (prop.type === 'number') {
    const v = linkNumber(attrNumber(value, prop.default, prop.min, prop.max));
    return prop.snap ? prop.snap(v) : prop.integer ? Math.round(v) : v;
  }
  if (prop.type === 'boolean') return value !== 'false';
  if (prop.type === 'enum') return prop.values.includes(value) ? value : prop.default;
  return prop.normalize ? prop.normalize(value) ?? prop.default : value;
}

/**
 * The same, strictly, for a value given on purpose (a command's option):
 * {value} as parseProp reads it, or {problem}: 'number' (not a number),
 * 'boolean', 'enum' (not one of the values) or 'string' (text the figure
 * cannot use). Numbers out of range are clamped, as in a page.
 */
export function readProp(prop, text) {
  const t = String(text);
  if (prop.type === 'number' && !Number.isFinite(t.trim() === '' ? NaN : Number(t))) return { problem: 'number' };
  if (prop.type === 'boolean' && !['true', 'false', ''].includes(t)) return { problem: 'boolean' };
  if (prop.type === 'enum' && !prop.values.includes(t)) return { problem: 'enum' };
  if (prop.type === 'string' && prop.normalize && prop.normalize(t) === null) return { problem: 'string' };
  return { value: parseProp(prop, t) };
}
