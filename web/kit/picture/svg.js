// svg.js: SVG as text, for pictures drawn without a browser (no DOM):
// el('rect', {x: 1, width: 2}) -> '<rect x="1" width="2"/>'. Attribute values
// and text are escaped; numbers are written with at most two decimals.
const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text made safe for XML content and attribute values. */
export const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ESC[c]);

/** A number as an attribute: at most two decimals, no trailing zeros. */
export const fmt = (v) => (typeof v === 'number' ? String(Math.round(v * 100) / 100) : String(v));

/** An element: attributes (null, undefined and false are left out) and children (strings of SVG, already escaped). */
export function el(tag, attrs = {}, ...children) {
  const a = Object.entries(attrs).filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => ` ${k}="${esc(fmt(v))}"`).join('');
  const inner = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false).join('');
  return inner ? `<${tag}${a}>${inner}</${tag}>` : `<${tag}${a}/>`;
}

/** A <text> of plain text (escaped). */
export const text = (attrs, content) => el('text', attrs, esc(content));
