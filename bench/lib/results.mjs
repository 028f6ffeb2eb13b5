// results.mjs: bench/RESULTS.md, written by the scripts that measure. Each
// section of it sits between two markers and belongs to one command, which
// replaces it whole (its heading, a line that says when, where and with what
// it was measured, and its tables); the rest of the file stays as it is.
//
//   <!-- results:NAME -->
//   ## Title
//
//   measured 2026-12-01 by `npm run size -- --write` · CPU family 25, model 17 (AMD EPYC), 2 cores · Node v20.20.2 (V8 11.3) · Chromium 156.0.8078.79 · load average 1.2
//
//   ...tables...
//   <!-- /results:NAME -->
//
// A section not yet in the file is added at its end.
//   import { writeResults, table } from '../bench/lib/results.mjs';
//   writeResults('size', { title, command: 'npm run size -- --write', browser: browser.version(), body });
// The docs test (tests/site/docs.test.js) reads the sections back with
// sectionOf() to check every number the docs quote from them.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { machineInfo } from './machine.mjs';

export const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

const NAME = /^[a-z0-9][a-z0-9-]*$/;
const markers = (name) => [`<!-- results:${name} -->`, `<!-- /results:${name} -->`];

/** The text between section `name`'s markers in `text` (trimmed), or null. */
export function sectionOf(text, name) {
  const [open, close] = markers(name);
  const a = text.indexOf(open);
  const b = text.indexOf(close, a);
  return a < 0 || b < 0 ? null : text.slice(a + open.length, b).trim();
}

/** Every section's name in `text`, in order. */
export const sectionNames = (text) => [...text.matchAll(/<!-- results:([a-z0-9-]+) -->/g)].map((m) => m[1]);

/** `text` with section `name` replaced by `section` (added at the end when it has none). */
export function withSection(text, name, section) {
  if (!NAME.test(name)) throw new TypeError(`results: a section name is lowercase letters, digits and '-', got ${JSON.stringify(name)}`);
  const [open, close] = markers(name);
  const block = `${open}\n${section.trim()}\n${close}`;
  const a = text.indexOf(open);
  const b = text.indexOf(close, a);
  if (a >= 0 && b < 0) throw new Error(`results: ${open} has no ${close}`);
  if (a < 0) return `${text.trimEnd()}\n\n${block}\n`;
  return text.slice(0, a) + block + text.slice(b + close.length);
}

/** The CPU as /proc/cpuinfo names it: "CPU family 25, model 17 (AMD EPYC)" (the os module's name elsewhere). */
export function cpuText(machine = machineInfo()) {
  const id = machine.cpuId;
  return id?.family ? `CPU family ${id.family}, model ${id.model} (${id.name ?? machine.cpu})` : machine.cpu;
}

/**
 * The line under a section's heading: the date, the command, the CPU
 * (family and model), Node (and V8), the Chromium it ran in (`browser`, a
 * version; null: Node only) and the load average when it started (`load`,
 * default now: the machine may be shared).
 */
export function stamp({ command, date = new Date(), machine = machineInfo(), browser = null, load = os.loadavg()[0] }) {
  const day = (date instanceof Date ? date : new Date(date)).toISOString().slice(0, 10);
  const node = `Node ${machine.node} (V8 ${machine.v8.split('-')[0]})`;
  return [`measured ${day} by \`${command}\``, `${cpuText(machine)}, ${machine.cores} cores`, node,
    browser ? `Chromium ${browser}` : 'no browser', `load average ${load.toFixed(1)}`].join(' · ');
}

/** A section's text: its heading, the stamp and the body. */
export const sectionText = ({ title, body, ...when }) => `## ${title}\n\n${stamp(when)}\n\n${body.trim()}`;

/**
 * Write section `name` of bench/RESULTS.md (or `file`): {title, command,
 * body (Markdown), browser?, machine?, date?, load?}. Returns the file's path.
 */
export function writeResults(name, { file = RESULTS, ...section }) {
  for (const k of ['title', 'command', 'body']) {
    if (typeof section[k] !== 'string' || !section[k]) throw new TypeError(`results: section ${name} needs ${k} (a string)`);
  }
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Results\n';
  writeFileSync(file, withSection(text, name, sectionText(section)));
  return file;
}

/**
 * A Markdown table: `head` an array of column names, `rows` arrays of cells
 * (numbers and strings; null or undefined print as '–'), `align` one letter
 * per column, 'l' or 'r' (default: text left, numbers right, by the first row).
 */
export function table(head, rows, align = null) {
  const cell = (c) => (c === null || c === undefined ? '–' : String(c).replaceAll('|', '\\|'));
  const al = align ?? head.map((_, i) => (typeof rows[0]?.[i] === 'number' ? 'r' : 'l'));
  return [`| ${head.map(cell).join(' | ')} |`, `| ${al.map((a) => (a === 'r' ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/**
 * The cells of a section's table row whose first cells are `key` (strings,
 * compared trimmed): what a doc quoting the row's numbers must match.
 */
export function rowOf(section, key) {
  const rows = section.split('\n').filter((l) => /^\|.*\|$/.test(l.trim()) && !/^\|\s*:?-{3}/.test(l.trim()))
    .map((l) => l.trim().slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  return rows.find((cells) => key.every((k, i) => cells[i] === k)) ?? null;
}
