// c-build.js: what the native tests (native.test.js) and the fuzz run
// (tests/fuzz/fuzz.test.js) share to build the C sources: the source and
// export lists of src/ by part, which part a program links with, running
// commands (two at a time) and a temporary build folder.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const srcDir = join(root, 'src');
export const SAN_ENV = {
  ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=0:allocator_may_return_null=1',
  UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
};
export const SANITIZER_REPORT = /ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: UndefinedBehaviorSanitizer/;

/**
 * A list file of src/ (sources.txt, exports.txt) by part, {attention: names,
 * training: names}: a line "# [name]" starts part `name`; other comments and
 * blank lines are dropped.
 */
export function listParts(name) {
  const parts = {};
  let part = null;
  for (const line of readFileSync(join(srcDir, name), 'utf8').split('\n')) {
    part = /^#\s*\[(\w+)\]/.exec(line)?.[1] ?? part;
    const entry = line.replace(/#.*/, '').trim();
    if (entry) (parts[part] ??= []).push(entry);
  }
  assert.deepEqual(Object.keys(parts), ['attention', 'training'], `src/${name}: the attention part, then the training part`);
  return parts;
}
export const listFile = (name) => Object.values(listParts(name)).flat();

/** The C sources: the one list build.sh reads too (and every .c file of src/ is on it). */
export function cSources() {
  const files = listFile('sources.txt');
  const present = readdirSync(srcDir).filter((f) => f.endsWith('.c'));
  assert.deepEqual([...files].sort(), present.sort(), 'src/sources.txt lists every .c file of src/, once');
  return files.map((f) => join(srcDir, f));
}

/** The objects a program from `file` links with: the attention part's alone unless it calls the training part. */
export function partObjects(file, objects) {
  const training = listParts('exports.txt').training.map((n) => n.replace(/^_/, ''));
  const code = readFileSync(file, 'utf8');
  if (training.some((fn) => new RegExp(`\\b${fn}\\b`).test(code))) return { part: 'both parts', objects };
  const attention = new Set(listParts('sources.txt').attention.map((f) => basename(f, '.c')));
  return { part: 'the attention part alone', objects: objects.filter((o) => attention.has(basename(o, '.o'))) };
}

export function works(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs a command; resolves with its code, signal, output and time. */
export function run(cmd, args, { timeoutMs = 120_000, env = {}, cwd = root } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - t0, cmd: [cmd, ...args].join(' ') });
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, stdout, stderr: String(err), timedOut, ms: Date.now() - t0, cmd });
    });
  });
}

/** Runs async jobs with at most `limit` at a time, results in order. */
export async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

export const tail = (s, n = 60) => s.split('\n').slice(-n).join('\n');

export function buildDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `attention-${name}-`));
  return {
    dir,
    done() {
      if (process.env.KEEP_BUILD) console.log(`kept ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}
