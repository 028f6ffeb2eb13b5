// load.js: choosing, compiling, checking and instantiating a build of the
// kernels. Where the .wasm comes from (the URLs bundlers see) is
// web/attention.js's.

// What only Node can do (read a file: URL, say where the working directory
// is) needs Node's fs and url: lent by process.getBuiltinModule where Node
// has it (20.16, 22.3: no import, 1.5 ms less at cold start), else from
// '#read-file' (package.json "imports": the two under the "node" condition,
// null under any other). Asked for only when needed, which a page never is:
// so a browser can import this file unbundled, and a bundler resolves
// '#read-file' to the file without node:.
async function node() {
  const lend = globalThis.process?.getBuiltinModule;
  return lend ? { fs: lend('fs'), url: lend('url') } : (await import('#read-file')).default;
}

// A tiny module that uses one SIMD instruction: validates only where wasm
// SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8,
  0, 65, 0, 253, 15, 253, 98, 11,
]);

// Three i8x16.splat of 0 into one f32x4.relaxed_madd (0xfd 0x105): validates
// only where relaxed SIMD is supported.
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 19, 1, 17,
  0, 65, 0, 253, 15, 65, 0, 253, 15, 65, 0, 253, 15, 253, 133, 2, 11,
]);

const validates = (probe) => {
  try {
    return WebAssembly.validate(probe);
  } catch {
    return false;
  }
};

/** True when this engine validates wasm SIMD. */
export const simdSupported = () => validates(SIMD_PROBE);

/** True when this engine validates relaxed SIMD (f32x4.relaxed_madd). */
export const relaxedSimdSupported = () => validates(RELAXED_PROBE);

/** The full engine's .wasm file per build, best first (build/attention-only*.wasm: the attention part's). */
export const BUILDS = Object.freeze({
  relaxed: 'attention.relaxed.wasm',
  simd: 'attention.simd.wasm',
  scalar: 'attention.wasm',
});

/** What attn_simd_enabled() reports, by build. */
const BUILD_OF_SIMD_KIND = ['scalar', 'simd', 'relaxed'];

let best = null; // (asked again at every sweep of a measuring figure: an engine's answer never changes)
/** The best build this engine validates: 'relaxed', 'simd' or 'scalar'. */
export function bestBuild() {
  return (best ??= relaxedSimdSupported() ? 'relaxed' : simdSupported() ? 'simd' : 'scalar');
}

/** `value` if it is one of the strings `allowed`; else a TypeError (not a
 *  string) or RangeError (another string) that names the option and them. */
function oneOf(name, value, allowed) {
  if (allowed.includes(value)) return value;
  const text = typeof value === 'string';
  const list = `'${allowed.slice(0, -1).join("', '")}' or '${allowed.at(-1)}'`;
  throw new (text ? RangeError : TypeError)(`${name} must be ${list}, got ${text ? `'${value}'` : typeof value}`);
}

/**
 * The build loadAttention's options ask for: `build` by name, else `simd`
 * (true: 'simd', false: 'scalar'), else the best the engine validates. A
 * build the engine cannot run is an Error that says so.
 */
export function chooseBuild({ build, simd } = {}) {
  if (build !== undefined) {
    oneOf('build', build, Object.keys(BUILDS));
  } else if (simd !== undefined) {
    if (typeof simd !== 'boolean') throw new TypeError(`simd must be true or false, got ${String(simd)}`);
    build = simd ? 'simd' : 'scalar';
  } else {
    return bestBuild();
  }
  const supported = { relaxed: relaxedSimdSupported, simd: simdSupported, scalar: () => true }[build]();
  if (!supported) throw new Error(`attention-wasm: this engine does not validate ${build === 'relaxed' ? 'relaxed SIMD' : 'wasm SIMD'}, so the '${build}' build cannot run`);
  return build;
}

// The functions each part's module exports: src/exports.txt's two parts
// (tests/load.test.js keeps them equal). The full engine has both parts.
const EXPORTS = {
  attention: [
    'status_name', 'simd_enabled', 'set_gemm_tiles', 'alloc', 'free', 'memory_in_use', 'first_nonfinite', 'layout_name',
    'layout_value', 'matmul', 'softmax_rows', 'positional_encoding', 'attention_workspace_size', 'attention',
    'attention_lse', 'mha_workspace_size', 'mha', 'mha_heads_workspace_size', 'mha_heads', 'project',
    'random_features', 'linear_attention_workspace_size', 'linear_attention', 'softmax_backward',
  ],
  training: [
    'attention_backward_workspace_size', 'attention_backward', 'attention_backward_dq', 'attention_backward_dkv',
    'mha_backward_workspace_size', 'mha_backward',
    'tf_param_count', 'tf_param_info', 'tf_init', 'tf_workspace_size', 'tf_forward', 'tf_gradients',
    'tf_train_step', 'tf_update', 'tf_cache_size', 'tf_decode_workspace_size', 'tf_decode',
  ],
};
/** The functions a module must export for loadAttention's `parts`. */
export const partExports = (parts) =>
  (parts === 'all' ? [...EXPORTS.attention, ...EXPORTS.training] : EXPORTS.attention).map((name) => `attn_${name}`);

const OPTIONS = ['parts', 'build', 'simd', 'module', 'wasmBinary', 'wasmUrl', 'tiles'];

/**
 * loadAttention's options, checked: {parts, tiles, build (null: whatever
 * the module given is), module or wasmBinary, or wasmUrl (as given)}.
 */
export function toLoadOptions(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError('loadAttention options must be an object');
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) throw new RangeError(`loadAttention: unknown option '${key}'; the options are ${OPTIONS.join(', ')}`);
  }
  const { parts = 'all', tiles = 'auto', module, wasmBinary, wasmUrl } = options;
  oneOf('parts', parts, ['attention', 'all']);
  oneOf('tiles', tiles, ['auto', '2x16', '6x8']);
  if (module !== undefined && !(module instanceof WebAssembly.Module)) {
    throw new TypeError('module must be a WebAssembly.Module (attn.module of an engine loaded before, or what WebAssembly.compile gives)');
  }
  if (wasmBinary !== undefined && !(wasmBinary instanceof ArrayBuffer || ArrayBuffer.isView(wasmBinary))) {
    throw new TypeError('wasmBinary must be the .wasm bytes (an ArrayBuffer, a typed array or a Buffer)');
  }
  if (wasmUrl !== undefined && typeof wasmUrl !== 'string' && !(wasmUrl instanceof URL)) {
    throw new TypeError(`wasmUrl must be a string or a URL, got ${typeof wasmUrl}`);
  }
  // With a module, bytes or a URL of one's own, the build is the one they
  // are, unless `build` or `simd` names it (then it is checked).
  const own = module !== undefined || wasmBinary !== undefined || wasmUrl !== undefined;
  const build = own && options.build === undefined && options.simd === undefined ? null : chooseBuild(options);
  return module || wasmBinary ? { parts, tiles, build, module, wasmBinary } : { parts, tiles, build, wasmUrl };
}

// A relative wasmUrl is relative to the page (document.baseURI: its <base>
// if it has one), a worker's script, or in Node the working directory:
// where the caller is, not this package.
async function resolve(wasmUrl) {
  const cwd = async () => (await node())?.url.pathToFileURL(process.cwd()).href.replace(/\/?$/, '/');
  const base = globalThis.document?.baseURI ?? globalThis.location?.href ?? (await cwd());
  try {
    return new URL(wasmUrl, base);
  } catch (err) {
    throw new TypeError(`wasmUrl '${wasmUrl}' is not a URL${base ? '' : ' (a relative one needs a page to be relative to; give an absolute URL)'}`, { cause: err });
  }
}

/** A compile error as the sentence loadAttention throws (`what`: the source's name); any other error as it is. */
export const notAModule = (what, err) => (typeof WebAssembly === 'object' && err instanceof WebAssembly.CompileError
  ? new Error(`attention-wasm: ${what} is not a valid WebAssembly module (damaged, or another file): ${err.message}`, { cause: err }) : err);

/**
 * The compiled module from the first source given: a compiled `module`, the
 * bytes `wasmBinary`, a `wasmUrl`, or else `defaultUrl()` (called only
 * then), checked to export what `parts` needs. Returns {module, what: the
 * source's name for errors}; a damaged module or a failed fetch is an Error
 * that says which.
 */
export async function compileModule({ parts, module, wasmBinary, wasmUrl }, defaultUrl) {
  if (typeof WebAssembly !== 'object' || WebAssembly === null) {
    throw new Error('attention-wasm: this browser has no WebAssembly (it may be switched off), so the kernels cannot run');
  }
  const url = module || wasmBinary ? null : wasmUrl === undefined ? defaultUrl() : await resolve(wasmUrl);
  const what = module ? 'module' : wasmBinary ? 'wasmBinary' : String(url);
  if (!module) {
    try {
      module = await (wasmBinary ? WebAssembly.compile(wasmBinary) : compile(url));
    } catch (err) {
      throw notAModule(what, err);
    }
  }
  const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const missing = partExports(parts).filter((name) => !exported.has(name));
  if (missing.length) {
    const small = parts === 'all' && partExports('attention').every((name) => exported.has(name));
    throw new Error(small
      ? `attention-wasm: ${what} is the attention part alone (attention-only*.wasm): it has no ${missing[0]}, which parts: 'all' needs; load it with parts: 'attention', or give the full engine (attention*.wasm)`
      : `attention-wasm: ${what} is not an attention-wasm engine: it does not export ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', ...' : ''}`);
  }
  return { module, what };
}

/**
 * The engine (see compileModule for where it comes from), instantiated.
 * Returns {module, ex: the instance's exports, build: the one the module
 * reports}, having checked that it is the `build` asked for (when one was).
 */
export async function instantiate(options, defaultUrl) {
  const { module, what } = await compileModule(options, defaultUrl);
  const instance = await WebAssembly.instantiate(module, stubImports(module));
  instance.exports._initialize?.();
  const ex = instance.exports;
  const is = BUILD_OF_SIMD_KIND[ex.attn_simd_enabled()];
  if (options.build !== null && options.build !== is) {
    throw new Error(`attention-wasm: the '${options.build}' build was asked for, but ${what} is the '${is}' build`);
  }
  return { module, ex, build: is };
}

async function compile(url) {
  if (url.protocol === 'file:') return WebAssembly.compile(await readFileUrl(url));
  return fetchModule(url);
}

/**
 * The WebAssembly.Module at `url` (http or https), fetched and compiled as
 * it streams in; a failed fetch is an Error that says what to check. (The
 * figures' autoloader starts it early: kit/autoload.js.)
 */
export async function fetchModule(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) { // (from another origin, the likely cause is a missing CORS header, which fetch does not name)
    const foreign = globalThis.location && url.origin !== globalThis.location.origin;
    throw new Error(`attention-wasm: could not load ${url} (${err.message})${foreign ? '; a .wasm from another origin needs its server to send Access-Control-Allow-Origin' : ''}`, { cause: err });
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

async function readFileUrl(url) {
  let host;
  try {
    host = await node();
  } catch { // an unbundled page opened from a file: resolves no '#read-file'
    host = null;
  }
  if (!host) {
    throw new Error(`attention-wasm: cannot read ${url} here (a file: URL, which only Node reads); serve the .wasm over http(s) and give its wasmUrl, or give its bytes as wasmBinary or a compiled module as module`);
  }
  try {
    return host.fs.readFileSync(url);
  } catch (err) {
    throw new Error(`attention-wasm: could not load ${url} (${err.code ?? err.message})`, { cause: err });
  }
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
