// in-wasm.mjs: inputs placed in one engine instance's memory once, for the
// "kernel alone" timings (no copies in or out, no fresh arrays: what is left
// is the kernel, which the ceiling targets are about).
import { sizeOf, writeStruct } from '../../web/api/layout.js';

/** Allocations in `ex` (the raw exports), freed together by done(). */
export function wasmArena(ex) {
  const ptrs = [];
  const alloc = (bytes) => {
    const p = ex.attn_alloc(bytes) >>> 0;
    if (!p) throw new Error('out of wasm memory');
    ptrs.push(p);
    return p;
  };
  return {
    alloc,
    /** A Float32Array's values, copied in once. */
    put(a) {
      const p = alloc(a.byteLength);
      new Float32Array(ex.memory.buffer, p, a.length).set(a);
      return p;
    },
    /** A C struct `name`, zeroed, then `values` by field name, laid out as
     *  the module reports (web/api/layout.js): e.g. attn_masks { causal: 1 }. */
    struct(name, values) {
      const size = sizeOf(ex, name);
      const p = alloc(size);
      new Uint8Array(ex.memory.buffer, p, size).fill(0);
      writeStruct(ex, name, p, values);
      return p;
    },
    done: () => ptrs.forEach((p) => ex.attn_free(p)),
  };
}

/** Throws unless a C status is 0 (ATTN_OK). */
export function checkStatus(status, what) {
  if (status !== 0) throw new Error(`${what}: status ${status}`);
}
