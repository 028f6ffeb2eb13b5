// load.js: finding, compiling and instantiating a build of the kernels.

// A tiny module that uses one SIMD instruction: validates only where wasm
// SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8,
  0, 65, 0, 253, 15, 253, 98, 11,
]);

/** True when this engine validates wasm SIMD. */
export function simdSupported() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

/**
 * The exports of an instantiated build. `binary` (bytes) wins over `url`;
 * a damaged module or a failed fetch is an Error that says which.
 */
export async function instantiate(binary, url) {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('attention-wasm: this browser has no WebAssembly (it may be switched off), so the kernels cannot run');
  }
  let module;
  try {
    module = await compile(binary, url);
  } catch (err) {
    if (!(err instanceof WebAssembly.CompileError)) throw err;
    const what = binary ? 'wasmBinary' : String(url);
    throw new Error(`attention-wasm: ${what} is not a valid WebAssembly module (damaged, or another file): ${err.message}`, { cause: err });
  }
  const instance = await WebAssembly.instantiate(module, stubImports(module));
  instance.exports._initialize?.();
  return instance.exports;
}

async function compile(binary, url) {
  if (binary) return WebAssembly.compile(binary);
  if (url.protocol === 'file:') {
    const { readFile } = await import(/* webpackIgnore: true */ 'node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new Error(`attention-wasm: could not load ${url} (${err.message})`, { cause: err });
  }
  if (!response.ok) {
    throw new Error(`attention-wasm: could not load ${url} (HTTP ${response.status})`);
  }
  // Streaming compilation needs the application/wasm MIME type; hosts that
  // serve another type still work through the bytes.
  if (WebAssembly.compileStreaming && /wasm/.test(response.headers.get('content-type') ?? '')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

// The standalone module imports only notifications we do not need.
function stubImports(module) {
  const imports = {};
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') throw new Error(`attention-wasm: unexpected import ${mod}.${name}`);
    (imports[mod] ??= {})[name] = () => 0;
  }
  return imports;
}
