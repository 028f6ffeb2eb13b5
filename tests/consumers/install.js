// install.js: attention-wasm as its users get it: `npm pack` of this
// repository as built (run `bash build.sh` first: the pack runs no scripts,
// so it never rebuilds dist/ under another test), installed into a fresh
// folder. The package has no dependencies, so the install needs no network;
// what a consumer adds of its own (a bundler) comes from the npm registry.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const npm = (args, cwd, cache) => execFileSync('npm', args, {
  cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000,
  // a private cache: nothing read from or written to the user's
  env: { ...process.env, npm_config_cache: cache, npm_config_update_notifier: 'false' },
});

/** Pack the repository into `tmp` (once per folder); -> the tarball's path. */
export function pack(tmp) {
  const tarball = join(tmp, 'attention-wasm.tgz');
  if (existsSync(tarball)) return tarball;
  for (const built of ['dist/attention-figures.js', 'web/embed/hugo/data/attention_figures.json']) {
    assert.ok(existsSync(join(ROOT, built)), `${built} is missing: run bash build.sh first`);
  }
  const [{ filename }] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], ROOT, join(tmp, 'npm-cache')));
  renameSync(join(tmp, filename), tarball);
  return tarball;
}

/** A fresh project in `dir` with attention-wasm installed from the tarball; -> the package's folder. */
export function install(tmp, dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', pack(tmp)], dir, join(tmp, 'npm-cache'));
  return join(dir, 'node_modules/attention-wasm');
}

// The registry's packages, cached here (build/ is not the user's cache and
// not committed): a rerun finds what the last run downloaded.
const REGISTRY_CACHE = join(ROOT, 'build/npm-cache');

/** Install `specs` (exact `name@version`s from the npm registry) into the project `dir` as devDependencies. */
export function addFromRegistry(dir, specs) {
  npm(['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...specs], dir, REGISTRY_CACHE);
}
