// in-wasm.mjs: inputs placed in one engine instance's memory once, for the
// "kernel alone" timings (no copies in or out, no fresh arrays: what is left
// is the kernel, which the ceiling targets are about).

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
    done: () => ptrs.forEach((p) => ex.attn_free(p)),
  };
}

/** Throws unless a C status is 0 (ATTN_OK). */
export function checkStatus(status, what) {
  if (status !== 0) throw new Error(`${what}: status ${status}`);
}
