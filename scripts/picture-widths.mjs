// picture-widths.mjs: web/kit/picture/widths.js, the advance widths the
// pictures lay their text out with (web/kit/picture/text.js), measured
// from DejaVu Sans (regular and bold) with fontkit. DejaVu Sans is wider
// than the sans-serif fonts a browser falls back to, so text laid out with
// it fits in those too. Run by hand when the characters change:
//   node scripts/picture-widths.mjs /usr/share/fonts/truetype/dejavu
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2] ?? '/usr/share/fonts/truetype/dejavu';
const files = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' };

// Every character of the string tables, ASCII, Latin-1 and Greek (CJK is measured as 1 em: text.js).
const tables = [
  ...readdirSync(join(root, 'web/figures'), { recursive: true }).map((f) => join('web/figures', f)),
  ...readdirSync(join(root, 'web/kit'), { recursive: true }).map((f) => join('web/kit', f)),
].filter((f) => /\.strings(\.\w+)?\.js$/.test(f));
const chars = new Set();
for (let c = 0x20; c < 0x7f; c++) chars.add(String.fromCodePoint(c));
for (let c = 0xa0; c < 0x100; c++) chars.add(String.fromCodePoint(c));
for (let c = 0x391; c < 0x3ca; c++) chars.add(String.fromCodePoint(c));
for (const ch of '\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00b7\u00d7\u2212\u2248\u2192\u2190\u2714\u2718\u221a\u1d40\u1d3c\u2096\u03c4\u00b1\u2299\u03a3\u25b6\u275a\u2264\u2265\u221e\u2202\u2211\u2207\u2022') chars.add(ch);
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]/u;
for (const f of tables) for (const ch of readFileSync(join(root, f), 'utf8')) if (!CJK.test(ch) && ch.codePointAt(0) >= 0x20) chars.add(ch);

const out = {};
for (const [weight, file] of Object.entries(files)) {
  const font = fontkit.openSync(join(dir, file));
  const per = {};
  for (const ch of [...chars].sort()) {
    const glyph = font.glyphForCodePoint(ch.codePointAt(0));
    if (!glyph || glyph.id === 0) continue; // not in the font: text.js's default width
    per[ch] = Math.round((1000 * glyph.advanceWidth) / font.unitsPerEm);
  }
  out[weight] = per;
}
const body = Object.entries(out).map(([w, per]) => `  ${w}: ${JSON.stringify(per)},`).join('\n');
writeFileSync(join(root, 'web/kit/picture/widths.js'), `// widths.js: advance widths in thousandths of an em of DejaVu Sans ${Object.values(files).join(' and ')}\n`
  + '// (made by scripts/picture-widths.mjs; do not edit). Characters not here: text.js.\n'
  + `export default {\n${body}\n};\n`);
console.log(`widths.js: ${Object.keys(out.regular).length} characters`);
