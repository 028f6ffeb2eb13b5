// engine-tfjs.mjs: TensorFlow.js ops on its wasm backend, one thread, SIMD.
// In the browser bench's page the packages come through its import map.

// Every op keeps its output: at N = 16,384 the scores, scaled scores and
// softmax are 1 GiB each, and a run would take tens of seconds.
const MAX_N = 4096;

/** Folder holding the backend's .wasm files, for setWasmPaths (a path in Node, a URL in a page). */
export async function tfjsWasmDir() {
  if (!globalThis.process?.versions?.node) return new URL('../../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).href;
  const [{ createRequire }, path] = await Promise.all([import('node:module'), import('node:path')]);
  return path.dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
}

/** Puts tf (tfjs-core or tfjs) on the wasm backend with one thread: without
 *  multithread support it picks the plain SIMD build. */
export async function useWasmBackend(tf) {
  const backend = await import('@tensorflow/tfjs-backend-wasm');
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  backend.setThreadsCount(1);
  backend.setWasmPaths(await tfjsWasmDir());
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs wasm backend failed to initialize');
}

export async function load() {
  const tf = await import('@tensorflow/tfjs-core');
  await useWasmBackend(tf);
  if (!tf.env().getBool('WASM_HAS_SIMD_SUPPORT')) throw new Error('tfjs-wasm: no SIMD');

  // The causal rows' additive mask, one constant per N, made outside the
  // timed calls (as a model would hold it): 0 on and below the diagonal,
  // -1e9 above (the band part of ones, minus 1, times 1e9).
  const masks = new Map();
  const causalMask = (N) => {
    if (!masks.has(N)) masks.set(N, tf.tidy(() => tf.mul(tf.sub(tf.linalg.bandPart(tf.ones([N, N]), -1, 0), 1), 1e9)));
    return masks.get(N);
  };
  // Inputs become tensors inside the timed call (the copy in), and
  // dataSync copies the result out; tidy frees every intermediate.
  const read = (fn) => {
    const tensors = tf.tidy(fn);
    const out = tensors.map((t) => t.dataSync());
    tf.dispose(tensors);
    return { output: out[0], weights: out[1] };
  };
  return {
    version: tf.version_core,
    skip(cfg) {
      return cfg.N > MAX_N ? `N x N scores = ${(cfg.N * cfg.N * 4) / 2 ** 30} GiB per op output` : null;
    },
    prepare(cfg, x, { weights }) {
      if (cfg.kind === 'mha') return mha(tf, x, read);
      const scale = 1 / Math.sqrt(x.d);
      const mask = cfg.causal ? causalMask(x.N) : null;
      return () => read(() => {
        const [q, k, v] = [x.Q, x.K, x.V].map((a) => tf.tensor2d(a, [x.N, x.d]));
        const scores = tf.mul(tf.matMul(q, k, false, true), scale);
        const p = tf.softmax(mask ? tf.add(scores, mask) : scores);
        const o = tf.matMul(p, v);
        return weights ? [o, p] : [o];
      });
    },
  };
}

// Parameters become tensors once, as a loaded model's would.
function mha(tf, x, read) {
  const { N, D, heads } = x;
  const dh = D / heads;
  const [Wq, Wk, Wv, Wo] = [x.Wq, x.Wk, x.Wv, x.Wo].map((w) => tf.tensor2d(w, [D, D]));
  const [bq, bk, bv, bo] = [x.bq, x.bk, x.bv, x.bo].map((b) => tf.tensor1d(b));
  // N x D -> heads x N x dh
  const split = (t) => tf.transpose(tf.reshape(t, [N, heads, dh]), [1, 0, 2]);
  return () => read(() => {
    const Xq = tf.tensor2d(x.Xq, [N, D]);
    const Xkv = tf.tensor2d(x.Xkv, [N, D]);
    const q = split(tf.add(tf.matMul(Xq, Wq), bq));
    const k = split(tf.add(tf.matMul(Xkv, Wk), bk));
    const v = split(tf.add(tf.matMul(Xkv, Wv), bv));
    const p = tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)));
    const z = tf.reshape(tf.transpose(tf.matMul(p, v), [1, 0, 2]), [N, D]);
    return [tf.add(tf.matMul(z, Wo), bo)];
  });
}
