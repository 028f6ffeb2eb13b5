// mathml-core.js: KaTeX's MathML as the MathML Core browsers draw (used at
// build time by scripts/math.mjs, and by math.js for TeX typeset late).
// MathML Core (what Chromium draws) keeps mathvariant="normal" only: a bold
// or double-struck letter has to be the Unicode character itself.
const LETTER_STYLES = {
  bold: [0x1d400, 0x1d41a],
  italic: [0x1d434, 0x1d44e],
  'bold-italic': [0x1d468, 0x1d482],
  'double-struck': [0x1d538, 0x1d552],
};
const HOLES = { 'italic:h': '\u210e', 'double-struck:C': '\u2102', 'double-struck:H': '\u210d', 'double-struck:N': '\u2115',
  'double-struck:P': '\u2119', 'double-struck:Q': '\u211a', 'double-struck:R': '\u211d', 'double-struck:Z': '\u2124' };

function styledLetter(variant, c) {
  const start = LETTER_STYLES[variant];
  if (!start || !/^[A-Za-z]$/.test(c)) return null;
  return HOLES[`${variant}:${c}`] ?? String.fromCodePoint(c <= 'Z' ? start[0] + c.charCodeAt(0) - 65 : start[1] + c.charCodeAt(0) - 97);
}

/**
 * A letter as MathML draws it in an <mi> of one letter (text-transform: math-auto):
 * its mathematical italic character; any other text as it is.
 */
export const mathAuto = (text) => styledLetter('italic', text) ?? text;

/** KaTeX's MathML made MathML Core: styled letters as Unicode math letters. */
export const coreMathml = (markup) => markup.replace(/<mi mathvariant="([\w-]+)">([A-Za-z])<\/mi>/g,
  (m, variant, c) => { const l = styledLetter(variant, c); return l ? `<mi>${l}</mi>` : m; });
