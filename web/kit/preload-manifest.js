// preload-manifest.js: the bundle's file list, for autoload.js to ask for a
// figure's files ahead. Here, in the sources, there is none; the bundle's
// autoloader (dist/attention-figures.js) gets the real one in this module's
// place from scripts/bundle.mjs:
//   { self: 'attention-figures.js',            the autoloader's own file name
//     figures: { <name>: [files] },            the figure's module and every module it imports
//     words: { <name>: { en: [files], zh: [files] } }, its string tables and what they import
//     shared: { en: [files], zh: [files] },    the shared string tables
//     wasm: { relaxed: file, simd: file, scalar: file } }  the engine's attention part, per build
// every file relative to the autoloader's URL.
export default null;
