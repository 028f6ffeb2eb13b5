// text.js: how wide a line of text is without a layout engine, and lines
// wrapped to a width. Widths come from widths.js (DejaVu Sans, measured by
// scripts/picture-widths.mjs), a font wider than the sans-serif fonts a
// browser falls back to, so text laid out here fits there too; Chinese
// characters are one em each (CJK fonts draw them square). The fonts a
// picture names are in its language's picture.strings table.
import WIDTHS from './widths.js';

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/u;
const OTHER = 620; // a character widths.js does not know: about a digit's width

/** The width in px of `text` at `size` px (bold: the bold face). */
export function textWidth(text, size, bold = false) {
  const table = bold ? WIDTHS.bold : WIDTHS.regular;
  let w = 0;
  for (const ch of String(text)) w += table[ch] ?? (CJK.test(ch) ? 1000 : OTHER);
  return (w * size) / 1000;
}

/**
 * Runs of text split where a line may break: after a space, or around a
 * Chinese character. `**bold**` marks bold runs (rich.js's mark-up).
 * -> [{text, bold}] pieces, each a word with its trailing space or one CJK character.
 */
function pieces(text) {
  const out = [];
  String(text).split(/(\*\*[^*]+\*\*)/).filter(Boolean).forEach((part) => {
    const bold = part.length > 4 && part.startsWith('**') && part.endsWith('**');
    const t = bold ? part.slice(2, -2) : part;
    for (const m of t.matchAll(/[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f][\s]*|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+\s*|\s+/gu)) out.push({ text: m[0], bold });
  });
  return out;
}

/**
 * `text` (with **bold** runs) broken into lines no wider than `width` px at
 * `size` px: [[{text, bold}]] (a word wider than the line gets a line of its own).
 */
export function wrap(text, width, size) {
  const lines = [[]];
  let used = 0;
  for (const p of pieces(text)) {
    const trimmed = p.text.replace(/\s+$/, '');
    const w = textWidth(p.text, size, p.bold);
    if (used > 0 && used + textWidth(trimmed, size, p.bold) > width) {
      lines.push([]);
      used = 0;
      if (!trimmed) continue;
    }
    lines.at(-1).push(p);
    used += w;
  }
  return lines.map((line) => {
    const last = line.at(-1);
    if (last) last.text = last.text.replace(/\s+$/, '');
    return line.filter((p) => p.text);
  }).filter((line, i) => line.length || i === 0);
}

/** The width of a wrapped line. */
export const lineWidth = (line, size) => line.reduce((w, p) => w + textWidth(p.text, size, p.bold), 0);
