// bundle.mjs: dist/ for embedding the figures (run by build.sh).
//   dist/attention-figures.js      the autoloader a blogger includes: defines each tag when a page uses it
//   dist/figures/<name>.js         one figure's module (importable alone), and <name>.worker.js for a
//                                  figure that trains or measures in a worker
//   dist/chunks/*.js               code the figures share, loaded once per page
//   dist/attention[.relaxed|.simd].wasm  the kernels (a page downloads one: the best its engine validates)
// Formulas are typeset to MathML here (scripts/math.mjs); KaTeX itself is in
// a chunk that only TeX unknown at build time loads.
import { build, context } from 'esbuild';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join } from 'node:path';
import { BUILDS } from '../web/api/load.js';
import { FIGURES } from '../web/figures/registry.js';
import { figureMath } from './math.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// build/attention[.x].wasm's attention part alone
const partFile = (name) => name.replace('attention', 'attention-only');

// dist/ keeps every module one folder below the .wasm files (figures/,
// chunks/; the autoloader, at the top, loads no wasm), so the package's
// '../build/<file>.wasm' becomes '../<file>.wasm': still a literal
// new URL(..., import.meta.url) that a blogger's bundler can follow.
const wasmNextToDistPlugin = {
  name: 'attention-wasm-urls',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/]attention\.js$/ }, async ({ path }) => ({
      loader: 'js',
      contents: (await readFile(path, 'utf8')).replaceAll("new URL('../build/", "new URL('../"),
    }));
  },
};

// Each figure's module registers its formulas, typeset to MathML at build
// time (scripts/math.mjs), when it loads: the page needs no typesetter.
const figureMathPlugin = {
  name: 'attention-figure-math',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/]figures[\\/][\w-]+[\\/][\w-]+\.js$/ }, async ({ path }) => {
      const name = basename(path, '.js');
      if (basename(dirname(path)) !== name) return undefined; // not a figure's element module
      const map = await figureMath(name);
      const source = await readFile(path, 'utf8');
      return {
        loader: 'js',
        resolveDir: dirname(path),
        // registered before the module's own code defines the element
        contents: Object.keys(map).length === 0 ? source
          : `import { prerendered as __prerendered } from '../../kit/math.js';\n__prerendered(${JSON.stringify(map)});\n${source}`,
      };
    });
  },
};

export async function bundle({ watch = false } = {}) {
  await rm(dist, { recursive: true, force: true });
  await mkdir(dist, { recursive: true });
  const esm = {
    bundle: true,
    format: 'esm',
    minify: !process.env.NO_MINIFY, // NO_MINIFY=1: readable names for npm run bench:figures -- --profile
    target: ['es2022', 'chrome111', 'firefox113', 'safari16.4'],
    external: ['node:*'],
    legalComments: 'eof',
    logLevel: 'warning',
  };
  const configs = [
    {
      // the autoloader, every figure as an entry of its own, and the code
      // they share in chunks
      ...esm,
      entryPoints: {
        'attention-figures': join(root, 'web/figures/index.js'),
        ...Object.fromEntries(FIGURES.map(({ name }) => [`figures/${name}`, join(root, 'web/figures', name, `${name}.js`)])),
      },
      outdir: dist,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      plugins: [figureMathPlugin, wasmNextToDistPlugin],
    },
    // The figures' Web Workers: each its own file next to the figure's
    // module, which names it (a same-origin script, as worker-src under a
    // strict CSP requires).
    ...FIGURES.filter((f) => f.worker).map(({ name }) => ({
      ...esm,
      entryPoints: [join(root, 'web/figures', name, `${name}.worker.js`)],
      outfile: join(dist, 'figures', `${name}.worker.js`),
      plugins: [wasmNextToDistPlugin],
    })),
    // The workers of an attentionPool that a figure's worker starts (the
    // measuring figures' "on every core"): its new URL('./pool-worker.js',
    // import.meta.url) is that worker's folder.
    {
      ...esm,
      entryPoints: [join(root, 'web/api/pool-worker.js')],
      outfile: join(dist, 'figures', 'pool-worker.js'),
      plugins: [wasmNextToDistPlugin],
    },
  ];
  for (const name of Object.values(BUILDS)) { // the full engine and the attention part
    await copyFile(join(root, 'build', name), join(dist, name));
    await copyFile(join(root, 'build', partFile(name)), join(dist, partFile(name)));
  }
  if (!watch) {
    for (const c of configs) await build(c);
    return [];
  }
  const contexts = await Promise.all(configs.map((c) => context({ ...c, minify: false })));
  await Promise.all(contexts.map((c) => c.watch()));
  return contexts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
