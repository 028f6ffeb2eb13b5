// kernels.js: calls into one wasm instance. Every call borrows its wasm
// memory from an Arena that is freed in `finally`, translates a C status code
// into an Error in one place, and copies results out into fresh Float32Arrays
// (never views of wasm memory, which a later call can overwrite or a memory
// growth can detach).
import { position } from './check.js';
import { cString, sizeOf, writeStruct } from './layout.js';

/** The allocations of one call (or of one resident object), freed together. */
export class Arena {
  constructor(ex) {
    this.ex = ex;
    this.ptrs = [];
    this.peak = 0; // most bytes in use at once while this arena lived
  }
  alloc(bytes) {
    const ptr = this.ex.attn_alloc(Math.max(bytes, 1)) >>> 0;
    if (ptr === 0) throw new RangeError(`attention-wasm: out of wasm memory allocating ${bytes} bytes`);
    this.ptrs.push(ptr);
    this.peak = Math.max(this.peak, this.ex.attn_memory_in_use() >>> 0);
    return ptr;
  }
  floats(n) {
    return this.alloc(4 * n);
  }
  put(typed) {
    const ptr = this.alloc(typed.byteLength);
    new Uint8Array(this.ex.memory.buffer, ptr, typed.byteLength).set(
      new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength),
    );
    return ptr;
  }
  // A matrix from toMatrix/toVector, copied in and then scanned for NaN and
  // ±Infinity by the kernel's SIMD check (far faster than a JavaScript loop
  // over every input of every call). 0 (NULL) for an absent optional input.
  input(m) {
    if (!m) return 0;
    const ptr = this.put(m.data);
    const bad = this.ex.attn_first_nonfinite(ptr, m.data.length, m.allowMinusInf ? 1 : 0) >>> 0;
    if (bad < m.data.length) {
      const what = m.allowMinusInf ? 'finite or -Infinity' : 'finite (as float32)';
      const at = m.vector ? `index ${bad}` : position(bad, m.cols);
      throw new RangeError(`${m.name} has ${m.data[bad]} at ${at}; values must be ${what}`);
    }
    return ptr;
  }
  /** A C struct `name` (zeroed, then `values` by field name: layout.js). */
  struct(name, values) {
    const bytes = sizeOf(this.ex, name);
    const ptr = this.alloc(bytes);
    new Uint8Array(this.ex.memory.buffer, ptr, bytes).fill(0);
    writeStruct(this.ex, name, ptr, values);
    return ptr;
  }
  free() {
    for (const ptr of this.ptrs) this.ex.attn_free(ptr);
    this.ptrs = [];
  }
}

/**
 * One instantiated build: `ex` its exports; `training` the training part's
 * JS (training.js), or null for an engine loaded with parts: 'attention'.
 */
export class Kernels {
  constructor(ex, training = null) {
    this.ex = ex;
    this.training = training;
    this.peak = 0; // see Attention.memoryPeak()
  }

  /** The training part's JS for the call `what`, or an Error that names the option which loads it. */
  trainingPart(what) {
    if (this.training) return this.training;
    throw new Error(`attention-wasm: ${what} is in the training part of the engine, and this one was loaded with ` +
      "parts: 'attention' (the attention part alone); load it with loadAttention({ parts: 'all' }), the default");
  }

  /** fn(arena, exports) with a fresh arena, freed afterwards whatever happens. */
  run(fn) {
    const arena = new Arena(this.ex);
    try {
      return fn(arena, this.ex);
    } finally {
      this.peak = Math.max(this.peak, arena.peak);
      arena.free();
    }
  }

  /** Throws a RangeError naming `what` and the status unless it is 0 (ATTN_OK). */
  check(status, what) {
    if (status === 0) return;
    const ptr = this.ex.attn_status_name(status) >>> 0;
    throw new RangeError(`${what}: ${cString(this.ex, ptr)} (status ${status})`);
  }

  /**
   * The rows x cols floats at ptr as a matrix: a fresh copy, or copied into
   * `into` (a checked matrix of that shape: check.js toResult), which is
   * returned. Browsers can take far longer to hand out a fresh array than
   * to fill one (Chromium: ~100 us for 256 KiB, against 2 us).
   */
  read(ptr, rows, cols, into) {
    const view = new Float32Array(this.ex.memory.buffer, ptr, rows * cols);
    if (into) return into.data.set(view), into;
    return { rows, cols, data: view.slice() };
  }

  memoryInUse() {
    return this.ex.attn_memory_in_use() >>> 0;
  }
}

// Resident objects dropped without dispose() give their wasm memory back
// when collected.
const registry = new FinalizationRegistry((arena) => arena.free());

/**
 * An arena that outlives calls (parameters kept in wasm), freed by the
 * returned dispose() or, as a backstop, when `owner` is collected.
 */
export function residentArena(k, owner) {
  const arena = new Arena(k.ex);
  const token = {};
  registry.register(owner, arena, token);
  return {
    arena,
    dispose() {
      registry.unregister(token);
      arena.free();
    },
  };
}
