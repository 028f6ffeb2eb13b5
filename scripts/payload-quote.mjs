// payload-quote.mjs: the one sentence README.md and web/embed/README.md quote
// for what a page with every figure downloads, from one measurement of dist/
// (scripts/bundle.mjs's payload(); run `bash build.sh` first).
//   node scripts/payload-quote.mjs            print the sentence
//   node scripts/payload-quote.mjs --write    put it between the markers in both files
// tests/figures/payload-quote.test.js checks both files quote the same
// sentence and that it is still within 3% of dist/.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { payload } from './bundle.mjs';

export const QUOTING = ['README.md', 'web/embed/README.md'];
export const MARKERS = /(<!-- payload: node scripts\/payload-quote\.mjs --write -->\n)([\s\S]*?)(\n<!-- \/payload -->)/;

const kb = (n) => `${n.toLocaleString('en-US')}`;

/** The sentence, from one run over the three builds. */
export async function payloadSentence() {
  const [relaxed, simd, scalar] = [await payload('relaxed'), await payload('simd'), await payload('scalar')];
  return `**${kb(relaxed.raw)} bytes, ${kb(relaxed.gzip)} gzip** with the relaxed-SIMD wasm (the build current Chrome loads);`
    + ` ${kb(simd.gzip)} gzip with the SIMD build, ${kb(scalar.gzip)} gzip with the scalar one`
    + ' (the bundle with KaTeX and CSS inlined, one `.wasm`, six KaTeX woff2 fonts; gzip -9).';
}

/** The gzip bytes (relaxed build) a quoted sentence states. */
export const quotedGzip = (sentence) => Number(/bytes, ([\d,]+) gzip\*\*/.exec(sentence)?.[1].replaceAll(',', ''));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sentence = await payloadSentence();
  console.log(sentence);
  if (process.argv.includes('--write')) {
    for (const file of QUOTING) {
      const url = new URL(`../${file}`, import.meta.url);
      const text = await readFile(url, 'utf8');
      if (!MARKERS.test(text)) throw new Error(`${file} has no payload markers`);
      await writeFile(url, text.replace(MARKERS, (_, a, _old, c) => a + sentence + c));
      console.log(`written to ${file}`);
    }
  }
}
