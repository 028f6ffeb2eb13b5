#!/usr/bin/env node
// attention-wasm: the package's command.
//   attention-wasm snapshot <figure> [--<attribute> <value>]... [--example <json file>]
//     [--lang en|zh-CN] [--theme light|dark] [--format svg|png] [--width <px>] [--out <file>]
// draws a figure as it first shows with those attributes, computed in Node
// (snapshot.js), to standard output or to --out. Anything it cannot do is
// said in one sentence on standard error, with exit status 2, and nothing
// is written: --out is written whole or not at all.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { DEFAULT_WIDTH, OPTIONS, SnapshotError, snapshot } from './snapshot.js';

const USAGE = `usage: attention-wasm snapshot <figure> [--<attribute> <value>]... [--example <json file>]
         [--lang en|zh-CN] [--theme light|dark] [--format svg|png] [--width <px>] [--out <file>]
Draws a figure of attention-wasm as SVG or PNG, computed here (default: English, light, SVG, ${DEFAULT_WIDTH} px, to standard output).`;

/** argv (after "snapshot") -> {figure, attrs, options}; a SnapshotError for what it cannot read. */
function parseArgs(argv) {
  const [figure, ...rest] = argv;
  if (!figure || figure.startsWith('--')) throw new SnapshotError('Name a figure: attention-wasm snapshot <figure> (for example soft-dictionary).');
  const attrs = {};
  const options = {};
  for (let k = 0; k < rest.length; k++) {
    const arg = rest[k];
    const m = arg.match(/^--([A-Za-z][\w-]*)(?:=(.*))?$/s);
    if (!m) throw new SnapshotError(`${JSON.stringify(arg)} is not an option: options are --<name> <value>.`);
    const name = m[1];
    let value = m[2];
    if (value === undefined) {
      if (k + 1 >= rest.length) throw new SnapshotError(`--${name} needs a value.`);
      value = rest[++k];
    }
    const into = OPTIONS.includes(name) ? options : attrs;
    if (Object.hasOwn(into, name)) throw new SnapshotError(`--${name} is given twice.`);
    into[name] = value;
  }
  return { figure, attrs, options };
}

function readExample(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new SnapshotError(`--example: cannot read ${file} (${err.code ?? err.message}).`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SnapshotError(`--example: ${file} is not valid JSON (${err.message}).`);
  }
}

// The whole file, or nothing: written next to `out` under another name, then renamed over it.
function writeWhole(out, data) {
  const temp = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, data);
    renameSync(temp, out);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new SnapshotError(`--out: cannot write ${out} (${err.code ?? err.message}).`);
  }
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command !== 'snapshot') throw new SnapshotError(`There is no command "${command}"; the command is snapshot.\n${USAGE}`);
  if (rest.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { figure, attrs, options } = parseArgs(rest);
  const width = options.width === undefined ? DEFAULT_WIDTH : /^\d+$/.test(options.width) ? Number(options.width) : options.width;
  const example = options.example === undefined ? undefined : readExample(options.example);
  const { data } = await snapshot({
    figure, attrs, example, exampleName: options.example, width,
    lang: options.lang ?? 'en', theme: options.theme ?? 'light', format: options.format ?? 'svg',
  });
  if (options.out !== undefined) writeWhole(options.out, data);
  else await new Promise((resolve, reject) => process.stdout.write(data, (err) => (err ? reject(err) : resolve())));
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof SnapshotError)) throw err;
  process.stderr.write(`attention-wasm: ${err.message}\n`);
  process.exitCode = 2;
}
