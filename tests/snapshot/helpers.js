// helpers.js: what the picture tests share: the command run as a reader runs
// it, and the SVG it writes read by a real XML parser.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/attention-wasm.js', import.meta.url));


/** Run `attention-wasm ...args` (node given `flags`): {code, stdout (a Buffer), stderr}. */
export const run = (args, { cwd = ROOT, flags = [] } = {}) => new Promise((resolve) => {
  execFile(process.execPath, [...flags, BIN, ...args], { cwd, encoding: 'buffer', maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
    resolve({ code: err ? err.code : 0, stdout, stderr: stderr.toString() });
  });
});

/** Parse SVG text with a real XML parser; throws on any error or warning. */
export function parseSvg(svg) {
  const problems = [];
  const doc = new DOMParser({ onError: (level, message) => problems.push(`${level}: ${message}`) }).parseFromString(svg, 'image/svg+xml');
  if (problems.length) throw new Error(`the SVG does not parse: ${problems.join('; ')}`);
  return doc;
}

const all = (node, name) => Array.from(node.getElementsByTagName(name));

/** What a parsed picture shows: {title, desc, texts: every <text>'s words, width, height, root}. */
export function readPicture(doc) {
  const root = doc.documentElement;
  return {
    root,
    title: all(root, 'title')[0]?.textContent,
    desc: all(root, 'desc')[0]?.textContent,
    texts: all(root, 'text').map((t) => t.textContent),
    width: Number(root.getAttribute('width')),
    height: Number(root.getAttribute('height')),
  };
}

/** A PNG's width and height, from its IHDR chunk. */
export function pngSize(buf) {
  const signature = '89504e470d0a1a0a';
  if (buf.subarray(0, 8).toString('hex') !== signature || buf.subarray(12, 16).toString() !== 'IHDR') throw new Error('not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** The numbers a text shows, as printed: "0.37", "−0.15", "55%", "1×3" gives 1 and 3. */
export const numbersIn = (text) => String(text).match(/[\u2212-]?\d+(?:\.\d+)?%?/g) ?? [];
