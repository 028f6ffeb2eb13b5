// slowest.mjs: a reporter for node --test (scripts/test.mjs adds it beside the usual
// one): at the end of a run, every failed test with its error (the end of a long log is
// what a CI page shows), the ten slowest tests, each with its file; and every
// file's time (the sum of its tests') in tests/artifacts/durations.json, from which
// the next run starts the slowest files first (a fresh clone has none: it reads
// tests/durations.json, a copy of one full run's, refreshed by hand when files change much).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DURATIONS = `${ROOT}tests/artifacts/durations.json`;

/** The seconds each file took in the last run that ran it ({} when none did). */
export function lastDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

export default async function* slowest(source) {
  const tests = [];
  const failed = [];
  for await (const { type, data } of source) {
    // the innermost failures: a suite fails when a test in it does, and says only that
    if (type === 'test:fail' && data.details?.error?.failureType !== 'subtestsFailed') {
      const e = data.details?.error;
      const why = String(e?.cause?.stack ?? e?.cause ?? e?.message ?? e).split('\n').slice(0, 8).join('\n    ');
      failed.push(`  ${data.name}  (${data.file ? relative(ROOT, data.file) : '?'}${data.line ? `:${data.line}` : ''})\n    ${why}`);
    }
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.file) {
      tests.push({ name: data.name, file: relative(ROOT, data.file), s: (data.details?.duration_ms ?? 0) / 1000 });
    }
  }
  if (failed.length) yield `\nFailed (${failed.length}):\n${failed.join('\n')}\n`;
  if (!tests.length) return;
  const files = lastDurations();
  const ran = {};
  for (const t of tests) ran[t.file] = (ran[t.file] ?? 0) + t.s;
  for (const [f, s] of Object.entries(ran)) files[f] = Math.round(s * 10) / 10;
  mkdirSync(`${ROOT}tests/artifacts`, { recursive: true });
  writeFileSync(DURATIONS, `${JSON.stringify(files, null, 1)}\n`);
  const top = tests.sort((a, b) => b.s - a.s).slice(0, 10);
  yield `\nThe ten slowest tests:\n${top.map((t) => `${t.s.toFixed(1).padStart(7)} s  ${t.name.length > 90 ? `${t.name.slice(0, 89)}…` : t.name}  (${t.file})`).join('\n')}\n`;
}
