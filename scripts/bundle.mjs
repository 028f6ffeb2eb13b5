// bundle.mjs: dist/ for embedding the figures (run by build.sh).
//   dist/attention-figures.js     all figures + toolkit + KaTeX + the JS API, one ES module
//   dist/attention[.relaxed|.simd].wasm  the kernels, found next to the bundle (a page
//                                 downloads one: the best its engine validates)
//   dist/fonts/*.woff2            the KaTeX fonts the figures' math uses
import { build, context } from 'esbuild';
import { copyFile, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { BUILDS } from '../web/api/load.js';
import { FIGURES } from '../web/figures/registry.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const katexDir = join(root, 'node_modules/katex/dist');

// The KaTeX fonts our TeX needs (italic letters, bold vectors, sums, the R
// of \mathbb{R}); any other font request would 404, which tests/browser catches.
export const FONTS = [
  'KaTeX_Main-Regular', 'KaTeX_Math-Italic', 'KaTeX_Math-BoldItalic',
  'KaTeX_Size1-Regular', 'KaTeX_Size2-Regular', 'KaTeX_AMS-Regular',
];

// KaTeX's CSS split in two: @font-face rules (only for FONTS, woff2 only,
// URLs relative to the bundle) and every other rule.
async function katexCss() {
  const css = await readFile(join(katexDir, 'katex.min.css'), 'utf8');
  const faces = css.match(/@font-face\{[^}]*\}/g) ?? [];
  const kept = faces
    .filter((f) => FONTS.some((name) => f.includes(`fonts/${name}.woff2`)))
    .map((f) => f.replace(/src:url\(fonts\/([\w-]+\.woff2)\)[^;}]*/, 'src:url(fonts/$1) format("woff2")'));
  return { rules: faces.reduce((c, f) => c.replace(f, ''), css), fonts: kept.join('') };
}

const katexCssPlugin = {
  name: 'attention-katex-css',
  setup(b) {
    b.onResolve({ filter: /^attention-katex-css$/ }, () => ({ path: 'katex-css', namespace: 'katex-css' }));
    b.onLoad({ filter: /.*/, namespace: 'katex-css' }, async () => {
      const { rules, fonts } = await katexCss();
      return {
        loader: 'js',
        contents: `export const rulesCss = ${JSON.stringify(rules)};
export const fontCss = ${JSON.stringify(fonts)}.replaceAll('url(fonts/', 'url(' + new URL('./fonts/', import.meta.url).href);`,
      };
    });
  },
};

/**
 * Write dist/. With `watch`, esbuild keeps watching the sources and writes
 * again on every change (npm start: a reload shows the edit); resolves to
 * the esbuild contexts, whose dispose() stops it.
 */
export async function bundle({ watch = false } = {}) {
  await rm(dist, { recursive: true, force: true });
  await mkdir(join(dist, 'fonts'), { recursive: true });
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
    { ...esm, entryPoints: [join(root, 'web/figures/index.js')], outfile: join(dist, 'attention-figures.js'), plugins: [katexCssPlugin] },
    // The figures' Web Workers: each its own file next to the bundle (a
    // same-origin script, as worker-src under a strict CSP requires).
    ...FIGURES.filter((f) => f.worker).map(({ name }) => ({
      ...esm, entryPoints: [join(root, 'web/figures', name, `${name}.worker.js`)], outfile: join(dist, `${name}.worker.js`),
    })),
  ];
  for (const name of Object.values(BUILDS)) {
    await copyFile(join(root, 'build', name), join(dist, name));
  }
  for (const name of FONTS) {
    await copyFile(join(katexDir, 'fonts', `${name}.woff2`), join(dist, 'fonts', `${name}.woff2`));
  }
  if (!watch) {
    for (const c of configs) await build(c);
    return [];
  }
  const contexts = await Promise.all(configs.map((c) => context({ ...c, minify: false })));
  await Promise.all(contexts.map((c) => c.watch()));
  return contexts;
}

/**
 * Bytes a page downloads for all figures: the bundle, the one wasm its engine
 * loads (`build`: the largest, relaxed, by default) and the fonts, raw and gzip -9.
 */
export async function payload(build = 'relaxed') {
  const files = ['attention-figures.js', BUILDS[build], ...(await readdir(join(dist, 'fonts'))).map((f) => `fonts/${f}`)];
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = await readFile(join(dist, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, raw, gzip };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundle();
  const { raw, gzip } = await payload();
  console.log(`bundle.mjs: dist/ payload for all figures ${raw} bytes, ${gzip} gzip (JS + relaxed wasm + fonts)`);
}
