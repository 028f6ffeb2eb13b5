// read-file.js: what only Node can do for the loader, anywhere else (a
// browser, a worker, a bundle for either): package.json "imports" maps
// "#read-file" here under every condition but "node" (read-file.node.js).
// Nothing here names a node: module, so no bundler is asked to find one.

/** A browser cannot read a file: URL; the Error says what to do instead. */
export async function readFile(url) {
  throw new Error(`attention-wasm: cannot read ${url} here (a file: URL, which only Node reads); serve the .wasm over http(s) and give its wasmUrl, or give its bytes as wasmBinary or a compiled module as module`);
}

/** No working directory outside Node: a relative wasmUrl needs a page. */
export const baseUrl = () => undefined;
