// check.js: validation of what callers pass, before any wasm memory is
// touched. Every error names the argument and what was expected: TypeError
// for the wrong kind of thing, RangeError for the wrong size or value.

// The wasm builds' memory cap, written only here: build.sh links every build
// with it. What one call may ask for keeps a margin below it (the module's
// own data and stack).
export const MAX_MEMORY = 2 ** 31;
export const MEMORY_LIMIT = MAX_MEMORY - 2 ** 24;
/** The cap in words, for messages. */
export const CAP = `${MAX_MEMORY / 2 ** 30} GiB`;

export const FUSED_HINT = ' (for attention over long sequences, pass weights: false to use the fused path)';

const isInt = (n) => Number.isInteger(n) && n > 0;

// Arrays and typed arrays (not DataView: it has no indices).
export const isArrayLike = (x) => Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));

export function checkSize(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, got ${typeof value}`);
  if (!isInt(value)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

export const position = (at, cols) => `row ${Math.floor(at / cols)}, column ${at % cols}`;

// Accepts {rows, cols, data} or an array of equal-length rows; returns
// {rows, cols, data: Float32Array, name}. `allowMinusInf` is for additive
// masks (the NaN scan happens as the data is copied into wasm: Arena.input).
export function toMatrix(x, name, { allowMinusInf = false } = {}) {
  let rows, cols, data;
  if (Array.isArray(x)) {
    rows = x.length;
    if (rows === 0) throw new RangeError(`${name} must have at least one row`);
    // Index loops, not every/forEach: those skip the holes of a sparse array.
    for (let i = 0; i < rows; i++) {
      if (!isArrayLike(x[i])) {
        throw new TypeError(`${name} must be an array of rows (arrays of numbers); row ${i} is ${x[i] === undefined ? 'missing' : typeof x[i]}`);
      }
    }
    cols = x[0].length;
    if (cols === 0) throw new RangeError(`${name} must have at least one column`);
    for (let i = 0; i < rows; i++) {
      if (x[i].length !== cols) {
        throw new RangeError(`${name} row ${i} has ${x[i].length} values, expected ${cols} like row 0`);
      }
    }
    data = new Float32Array(rows * cols);
    for (let i = 0; i < rows; i++) data.set(float32Values(x[i], name, cols, i * cols), i * cols);
    return { rows, cols, data, name, allowMinusInf };
  }
  if (x === null || typeof x !== 'object' || !('data' in x)) {
    throw new TypeError(`${name} must be a matrix {rows, cols, data} or an array of rows`);
  }
  rows = checkSize(x.rows, `${name}.rows`);
  cols = checkSize(x.cols, `${name}.cols`);
  data = x.data;
  if (!isArrayLike(data)) {
    throw new TypeError(`${name}.data must be a Float32Array or an array of numbers`);
  }
  if (data.length !== rows * cols) {
    throw new RangeError(
      `${name}.data has ${data.length} values, expected rows*cols = ${rows}*${cols} = ${rows * cols}`,
    );
  }
  return { rows, cols, data: float32Values(data, name, cols), name, allowMinusInf };
}

// The values of `src` (a row, or the whole data) as float32: the array itself
// when it already is a Float32Array. Non-numbers are a TypeError.
function float32Values(src, name, cols, offset = 0) {
  if (src instanceof Float32Array) return src;
  if (ArrayBuffer.isView(src) && typeof src[0] !== 'bigint') return new Float32Array(src);
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) {
    const v = src[i];
    if (typeof v !== 'number') {
      throw new TypeError(`${name} has a non-number (${typeof v}) at ${position(offset + i, cols)}`);
    }
    out[i] = v;
  }
  return out;
}

export function expectShape(m, name, rows, cols, what) {
  if ((rows !== undefined && m.rows !== rows) || (cols !== undefined && m.cols !== cols)) {
    throw new RangeError(
      `${name} is ${m.rows}x${m.cols}, expected ${rows ?? m.rows}x${cols ?? m.cols} (${what})`,
    );
  }
}

// A matrix of an earlier result to overwrite (the `into` option): this
// call's shape, Float32Array data.
export function toResult(m, name, rows, cols) {
  const typed = m?.data instanceof Float32Array;
  if (!typed || m.rows !== rows || m.cols !== cols || m.data.length !== rows * cols) {
    throw new (typed ? RangeError : TypeError)(`${name} must be a ${rows}x${cols} matrix with Float32Array data, as this call returns`);
  }
}

export function toVector(x, name, length, what) {
  if (!isArrayLike(x)) {
    throw new TypeError(`${name} must be an array of ${length} numbers (${what})`);
  }
  if (x.length !== length) throw new RangeError(`${name} has ${x.length} values, expected ${length} (${what})`);
  return { rows: 1, cols: length, data: float32Values(x, name, length), name, vector: true };
}

export function toOptions(options, name) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object' || isArrayLike(options)) {
    throw new TypeError(`${name} options must be an object`);
  }
  return options;
}

// An optional boolean option: `fallback` when absent. Anything but true/false
// is an error (a truthy 1 or 'no' must not be read silently one way).
export function toFlag(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be true or false, got ${String(value)}`);
  return value;
}

export function toPositive(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be finite and > 0, got ${value}`);
  return value;
}

// Nearest positive finite float32: the kernels take float temperatures/scales.
export const toFloat32 = (x) => Math.min(Math.max(Math.fround(x), 1.4e-45), 3.4028234663852886e38);

export function checkBytes(bytes, what, hint = '') {
  if (bytes > MEMORY_LIMIT) {
    throw new RangeError(`${what} needs ${(bytes / 2 ** 30).toFixed(1)} GiB of wasm memory; the limit is ${CAP}${hint}`);
  }
}
