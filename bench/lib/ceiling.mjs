// ceiling.mjs: builds ceiling.c (plain SIMD with emcc; relaxed SIMD with
// clang-19 and wasm-ld-19, as build.sh builds the relaxed kernels) and
// measures the wasm SIMD peaks.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { measureCeilingsBytes } from './ceiling-measure.mjs';

const SOURCE = new URL('./ceiling.c', import.meta.url);

const COMMANDS = {
  simd: (out) => [['emcc', ['-O3', '-msimd128', '--no-entry', '-sSTANDALONE_WASM', SOURCE.pathname, '-o', out]]],
  relaxed: (out) => [
    ['clang-19', ['--target=wasm32', '-O3', '-msimd128', '-mrelaxed-simd', '-c', SOURCE.pathname, '-o', `${out}.o`]],
    ['wasm-ld-19', ['--no-entry', '--export=ceiling_run', '--export=ceiling_flops_per_iteration', `${out}.o`, '-o', out]],
  ],
};

/** What each build's chains do, for the method line. */
const CEILING_OPS = { simd: 'f32x4 mul+add', relaxed: 'f32x4.relaxed_madd' };

/** The ceiling module's bytes for `kind` ('simd' or 'relaxed'), built outside
 *  the repo (bench/ holds sources only), keyed by the source. */
function ceilingWasm(kind) {
  const src = readFileSync(SOURCE);
  const dir = path.join(os.tmpdir(), 'attention-wasm-bench');
  const out = path.join(dir, `ceiling-${kind}-${createHash('sha1').update(src).digest('hex').slice(0, 12)}.wasm`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    for (const [cmd, args] of COMMANDS[kind](out)) {
      execFileSync(cmd, args, {
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, NODE_PATH: [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':') },
      });
    }
  }
  return readFileSync(out);
}

/** Both ceiling modules, { simd, relaxed }: each { bytes, what } or { error }. */
export function ceilingModules() {
  return Object.fromEntries(Object.keys(COMMANDS).map((kind) => {
    try {
      return [kind, { bytes: ceilingWasm(kind), what: CEILING_OPS[kind] }];
    } catch (e) {
      return [kind, { error: `build failed: ${e.message.split('\n')[0]}` }];
    }
  }));
}

/** Both ceilings in this process, measured together (ceiling-measure.mjs). */
export const measureCeilings = (options) => measureCeilingsBytes(ceilingModules(), options);
