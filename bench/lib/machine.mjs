// machine.mjs: the machine and the versions a result depends on.
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

// Package versions from node_modules (some packages do not export package.json).
function packageVersion(name) {
  try {
    let dir = path.dirname(require.resolve(name));
    while (!dir.endsWith(path.join('node_modules', name))) dir = path.dirname(dir);
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

function emccVersion() {
  try {
    return execFileSync('emcc', ['--version'], { encoding: 'utf8' }).split('\n')[0];
  } catch {
    return null;
  }
}

/** /proc/cpuinfo's first CPU: { family, model, name } (null where there is none, e.g. macOS). */
function cpuId() {
  try {
    const first = readFileSync('/proc/cpuinfo', 'utf8').split('\n\n')[0];
    const field = (name) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(first)?.[1] ?? null;
    return { family: field('cpu family'), model: field('model'), name: field('model name') };
  } catch {
    return null;
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cpuId: cpuId(),
    cores: cpus.length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
    emcc: emccVersion(),
    packages: Object.fromEntries(
      ['onnxruntime-web', '@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm', 'ruvector-attention-wasm']
        .map((p) => [p, packageVersion(p)]),
    ),
  };
}
