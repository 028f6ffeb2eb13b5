// bundle.mjs: dist/ for embedding the figures (run by build.sh).
//   dist/attention-figures.js      the autoloader a blogger includes: defines each tag when a page uses it,
//                                  and asks for a figure's files all at once (web/kit/autoload.js)
//   dist/figures/<name>.js         one figure's module (importable alone), and <name>.worker.js for a
//                                  figure that trains or measures in a worker; pool.js and pool-worker.js
//                                  the attentionPool such a worker starts when asked (every core)
//   dist/chunks/*.js               code the figures share, loaded once per page; chunks/kit.js the
//                                  engine and the typesetter the autoloader exports
//   dist/attention[.relaxed|.simd].wasm  the kernels (a page downloads one: the best its engine validates)
// Formulas are typeset to MathML here (scripts/math.mjs); KaTeX itself is in
// a chunk that only TeX unknown at build time loads.
//
// Two builds: the figures with their shared chunks first; then the
// autoloader, on its own, with what it uses inlined (so that it imports
// nothing before it can ask for a figure's files: one round trip less) and
// the first build's file list (its metafile) as its preload manifest.
import { build, context } from 'esbuild';
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { basename, dirname, join } from 'node:path';
import { BUILDS } from '../web/api/load.js';
import { FIGURES } from '../web/figures/registry.js';
import { LANGUAGES } from '../web/kit/i18n.js';
import { figureMath } from './math.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// build/attention[.x].wasm's attention part alone
const partFile = (name) => name.replace('attention', 'attention-only');

// dist/ keeps every module one folder below the .wasm files (figures/,
// chunks/; the autoloader, at the top, names the .wasm only in its preload
// manifest), so the package's
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

// The figures' modules and a measuring figure's worker load the attention
// part alone, which never imports the training part or the register tiles
// (the full relaxed engine's): their files leave them out (a third of a
// worker), in their place a module that says so if it is ever imported.
// A measuring worker leaves out the calls its sweep never makes too
// (LEFT_OUT): in their place, functions of the same names that say so if
// they are ever called.
const LEFT_OUT = {
  cost: ['mha', 'layer', 'linear'], // (it times attention() alone)
  efficient: ['mha', 'layer'],
};
const attentionPartPlugin = (calls = []) => ({
  name: 'attention-part-only',
  setup(b) {
    const out = new RegExp(`^\\./api/(training|tiles|${calls.join('|') || '-'})\\.js$`);
    b.onResolve({ filter: /^\.\/api\/\w+\.js$/ }, ({ path, importer, resolveDir }) =>
      (out.test(path) && /[\\/]web[\\/]attention\.js$/.test(importer) ? { path: join(resolveDir, path), namespace: 'left-out' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, async ({ path }) => {
      const part = /[\\/](training|tiles)\.js$/.test(path); // (imported dynamically, by the full engine alone)
      const said = JSON.stringify(`attention-wasm: ${basename(path)} is left out of this bundle, which loads ${
        part ? 'the attention part alone' : "a measuring figure's calls alone"}`);
      if (part) return { loader: 'js', contents: `throw new Error(${said});` };
      const names = [...(await readFile(path, 'utf8')).matchAll(/^export (?:async )?(?:function|const|class) (\w+)/gm)].map((m) => m[1]);
      return { loader: 'js', contents: [`const said = ${said};`, ...names.map((n) => `export function ${n}() { throw new Error(said); }`)].join('\n') };
    });
  },
});

// A figure's worker starts an attentionPool only when the reader asks for
// a sweep on every core: the pool's code (a third of the worker) is a file
// of its own beside the worker, dist/figures/pool.js, fetched then. The
// figures' modules (a folder beside it) name the same file.
const poolApart = (path) => ({
  name: 'pool-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/api\/pool\.js$/ }, ({ importer }) =>
      (/[\\/]web[\\/]attention\.js$/.test(importer) ? { path, external: true } : undefined));
  },
});

// The CSS of the figures' templates (`static css = `...``, `fooCss = `...``)
// without its comments and spaces: they say why to the reader of the source,
// not to every reader of a post (a tenth of a page's CSS text).
export function tidyCss(source) {
  return source.replace(/(\b(?:static css|\w*Css) = `)((?:[^`\\]|\\.)*)`/g, (_, head, css) => `${head}${css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,]) ?/g, '$1')
    .replace(/: /g, ':') // (no selector has ": ", and no rule here a string with it)
    .trim()}\``);
}

// Each figure's module registers its formulas, typeset to MathML at build
// time (scripts/math.mjs), when it loads: the page needs no typesetter.
// Every module of the figures and their kit is read with its CSS tidied.
const figureSourcePlugin = {
  name: 'attention-figure-source',
  setup(b) {
    b.onLoad({ filter: /[\\/]web[\\/](figures|kit)[\\/].*\.js$/ }, async ({ path }) => {
      const name = basename(path, '.js');
      const source = tidyCss(await readFile(path, 'utf8'));
      const element = basename(dirname(path)) === name && basename(dirname(dirname(path))) === 'figures';
      const map = element ? await figureMath(name) : {};
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

// The autoloader's preload manifest (web/kit/preload-manifest.js) from the
// figures' build's metafile: each figure's module and the modules it
// imports, its string tables, the shared ones, the attention part's .wasm
// per build; paths relative to dist/, where the autoloader is.
export function preloadManifest(metafile) {
  const rel = (out) => out.slice(out.indexOf('dist/') + 'dist/'.length);
  const outputs = Object.entries(metafile.outputs);
  const byPath = new Map(outputs);
  const closure = (out, seen = new Set([out])) => {
    for (const i of byPath.get(out).imports) {
      if (i.kind === 'import-statement' && !i.external && !seen.has(i.path)) closure(i.path, seen.add(i.path));
    }
    return seen;
  };
  const entry = (re) => outputs.find(([, o]) => re.test(o.entryPoint ?? ''))?.[0];
  // a string table and what it imports (the measuring figures' shared words)
  const words = (dir, name) => Object.fromEntries(LANGUAGES.map((lang) => [lang, [...closure(entry(new RegExp(`${dir}/${name}\\.strings\\.${lang}\\.js$`)))].map(rel)]));
  return {
    self: 'attention-figures.js',
    figures: Object.fromEntries(FIGURES.map(({ name }) => {
      const out = outputs.find(([path]) => path.endsWith(`dist/figures/${name}.js`))[0];
      return [name, [...closure(out)].map(rel)];
    })),
    words: Object.fromEntries(FIGURES.map(({ name }) => [name, words(`figures/${name}`, name)])),
    shared: words('kit', 'figure'),
    wasm: Object.fromEntries(Object.entries(BUILDS).map(([build, file]) => [build, partFile(file)])),
  };
}

// Builds the autoloader once the figures' build has ended (again after each
// rebuild, under npm start), with that build's manifest. Its imports of a
// figure (the registry's) and of the engine and the typesetter are the
// first build's files; the rest it uses is inlined.
function autoloaderPlugin(esm) {
  return {
    name: 'attention-autoloader',
    setup(b) {
      b.onEnd(async (result) => {
        if (result.errors.length) return;
        const manifest = preloadManifest(result.metafile);
        // (also as JSON, for the test that checks it: tests/browser/phone.test.js)
        await writeFile(join(root, 'build', 'preload-manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
        const names = new Set(FIGURES.map((f) => f.name));
        await build({
          ...esm,
          minify: b.initialOptions.minify,
          entryPoints: { 'attention-figures': join(root, 'web/figures/index.js') },
          outdir: dist,
          plugins: [{
            name: 'attention-autoloader-imports',
            setup(a) {
              a.onResolve({ filter: /^\.\/([\w-]+)\/([\w-]+)\.js$/ }, ({ path, importer }) => {
                const [, dir, file] = path.match(/^\.\/([\w-]+)\/([\w-]+)\.js$/);
                return basename(importer) === 'registry.js' && dir === file && names.has(dir) ? { path: `./figures/${dir}.js`, external: true } : undefined;
              });
              a.onResolve({ filter: /(^|\/)(engine|math)\.js$/ }, ({ path, resolveDir }) => {
                const kit = join(root, 'web/kit');
                const target = join(resolveDir, path);
                return target === join(kit, 'engine.js') || target === join(kit, 'math.js') ? { path: './chunks/kit.js', external: true } : undefined;
              });
              a.onLoad({ filter: /[\\/]kit[\\/]preload-manifest\.js$/ }, () => ({ loader: 'js', contents: `export default ${JSON.stringify(manifest)};` }));
            },
          }],
        });
      });
    },
  };
}

/**
 * Empty `dir` (made if missing) but for what build.sh makes there after the
 * bundle: the pictures (snapshots/) and the TypeScript declarations (*.d.ts).
 * Stale chunks go; npm start, which bundles again after build.sh, keeps the
 * pictures the article shows before each figure draws.
 */
export async function clean(dir) {
  await mkdir(dir, { recursive: true });
  const kept = (entry) => entry.name === 'snapshots' || entry.name.endsWith('.d.ts');
  const empty = async (d) => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      if (kept(entry)) continue;
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        await empty(path);
        if (!(await readdir(path)).length) await rm(path, { recursive: true });
      } else await rm(path);
    }
  };
  await empty(dir);
}

export async function bundle({ watch = false } = {}) {
  await clean(dist);
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
      // every figure as an entry of its own, and the code they share in
      // chunks; the engine and the typesetter under a name the autoloader
      // knows. esbuild makes a chunk of each set of entries that use some
      // code: without tree shaking, a module is used by every entry that
      // imports it, so what every figure imports (kit/figure-element.js and
      // its imports, which kit.js imports too) is one chunk, not one per
      // combination of who calls what. On HTTP/1.1 a browser asks six files
      // at a time: a figure's files then come in one round trip, not three.
      ...esm,
      entryPoints: {
        ...Object.fromEntries(FIGURES.map(({ name }) => [`figures/${name}`, join(root, 'web/figures', name, `${name}.js`)])),
        'chunks/kit': join(root, 'web/kit/kit.js'),
      },
      outdir: dist,
      splitting: true,
      treeShaking: false,
      chunkNames: 'chunks/[name]-[hash]',
      metafile: true,
      // (the figures' engine is the attention part: the training part, and
      // the pool, would be chunks that split theirs)
      plugins: [figureSourcePlugin, wasmNextToDistPlugin, attentionPartPlugin(), poolApart('../figures/pool.js'), autoloaderPlugin(esm)],
    },
    // The figures' Web Workers: each its own file next to the figure's
    // module, which names it (a same-origin script, as worker-src under a
    // strict CSP requires).
    ...FIGURES.filter((f) => f.worker).map(({ name, worker }) => ({
      ...esm,
      entryPoints: [join(root, 'web/figures', name, `${name}.worker.js`)],
      outfile: join(dist, 'figures', `${name}.worker.js`),
      plugins: [wasmNextToDistPlugin, poolApart('./pool.js'), ...(worker === 'measures' ? [attentionPartPlugin(LEFT_OUT[name])] : [])],
    })),
    // that pool's code, for the figures' workers (./pool.js from them)
    {
      ...esm,
      entryPoints: [join(root, 'web/api/pool.js')],
      outfile: join(dist, 'figures', 'pool.js'),
    },
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
  await Promise.all(contexts.map((c) => c.rebuild())); // (whole before the server answers: watch() builds in the background)
  await Promise.all(contexts.map((c) => c.watch()));
  return contexts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundle();
