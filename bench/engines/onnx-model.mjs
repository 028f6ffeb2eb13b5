// onnx-model.mjs: ONNX ModelProto bytes for the two graphs the bench runs on
// onnxruntime-web, written with the plain ops a converter would emit
// (MatMul, Mul by the scale, Add of a causal mask for the causal rows,
// Softmax, MatMul), so ORT gets no hand-fused op.
// Field numbers follow onnx.proto (ir_version 8, opset 17).
import { Message } from './protobuf.mjs';

const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;
const ATTR_INTS = 7;

function attribute(name, value) {
  const a = new Message().string(1, name);
  if (Array.isArray(value)) {
    for (const v of value) a.int(8, v);
    return a.int(20, ATTR_INTS);
  }
  return a.int(3, value).int(20, ATTR_INT);
}

function node(op, inputs, outputs, attrs = {}) {
  const n = new Message();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, `${op}_${outputs[0]}`).string(4, op);
  for (const [k, v] of Object.entries(attrs)) n.message(5, attribute(k, v));
  return n;
}

// dims: numbers for fixed sizes, strings for symbolic ones.
function valueInfo(name, dims) {
  const shape = new Message();
  for (const d of dims) {
    const dim = new Message();
    if (typeof d === 'string') dim.string(2, d);
    else dim.int(1, d);
    shape.message(1, dim);
  }
  const tensorType = new Message().int(1, FLOAT).message(2, shape);
  return new Message().string(1, name).message(2, new Message().message(1, tensorType));
}

function tensor(name, dims, values) {
  const t = new Message();
  for (const d of dims) t.int(1, d);
  if (values instanceof Float32Array) {
    t.int(2, FLOAT);
    t.bytesField(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  } else {
    t.int(2, INT64);
    t.bytesField(9, new Uint8Array(BigInt64Array.from(values, BigInt).buffer));
  }
  return t.string(8, name);
}

function model({ nodes, inputs, outputs, initializers }) {
  const g = new Message();
  for (const n of nodes) g.message(1, n);
  g.string(2, 'bench');
  for (const t of initializers) g.message(5, t);
  for (const [name, dims] of inputs) g.message(11, valueInfo(name, dims));
  for (const [name, dims] of outputs) g.message(12, valueInfo(name, dims));
  return new Message()
    .int(1, 8)
    .string(2, 'attention-wasm bench')
    .message(7, g)
    .message(8, new Message().string(1, '').int(2, 17))
    .bytes();
}

/** Scaled dot-product attention. Inputs Q (N x d), K (M x d), V (M x dv);
 *  outputs O (N x dv) and, with `weights`, P (N x M). N, M symbolic; with
 *  `causalN`, N = M = causalN and the scaled scores get an additive causal
 *  mask (an initializer, as an exported decoder carries it: 0 on and below
 *  the diagonal, -inf above) before the softmax. */
export function sdpaModel({ d, dv = d, scale = 1 / Math.sqrt(d), weights, causalN = 0 }) {
  const [N, M] = causalN ? [causalN, causalN] : ['N', 'M'];
  const nodes = [
    node('Transpose', ['K'], ['Kt'], { perm: [1, 0] }),
    node('MatMul', ['Q', 'Kt'], ['S']),
    node('Mul', ['S', 'scale'], ['Ss']),
    ...(causalN ? [node('Add', ['Ss', 'mask'], ['Sm'])] : []),
    node('Softmax', [causalN ? 'Sm' : 'Ss'], ['P'], { axis: -1 }),
    node('MatMul', ['P', 'V'], ['O']),
  ];
  const outputs = [['O', [N, dv]]];
  if (weights) outputs.push(['P', [N, M]]);
  const initializers = [tensor('scale', [], Float32Array.of(scale))];
  if (causalN) initializers.push(tensor('mask', [N, M], causalMask(causalN)));
  return model({ nodes, inputs: [['Q', [N, d]], ['K', [M, d]], ['V', [M, dv]]], outputs, initializers });
}

/** (n x n) 0 where key j <= query i, -Infinity where j > i. */
function causalMask(n) {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) m.fill(-Infinity, i * n + i + 1, (i + 1) * n);
  return m;
}

/** Multi-head attention with projections, the article's convention:
 *  Q = Xq Wq + bq (and K, V from Xkv), heads are column blocks of d/h,
 *  Y = Concat(Z_1..Z_h) Wo + bo. Weights and biases are initializers,
 *  as in an exported model (ORT may pre-pack them: its best case). */
export function mhaModel({ D, heads, Wq, Wk, Wv, Wo, bq, bk, bv, bo }) {
  const dh = D / heads;
  const nodes = [];
  const project = (x, p) => {
    nodes.push(node('MatMul', [x, `W${p}`], [`${p}0`]));
    nodes.push(node('Add', [`${p}0`, `b${p}`], [`${p}1`]));
    nodes.push(node('Reshape', [`${p}1`, 'splitHeads'], [`${p}2`]));
  };
  project('Xq', 'q');
  project('Xkv', 'k');
  project('Xkv', 'v');
  nodes.push(
    node('Transpose', ['q2'], ['qh'], { perm: [1, 0, 2] }), // heads x N x dh
    node('Transpose', ['k2'], ['kh'], { perm: [1, 2, 0] }), // heads x dh x M
    node('Transpose', ['v2'], ['vh'], { perm: [1, 0, 2] }), // heads x M x dh
    node('MatMul', ['qh', 'kh'], ['S']),
    node('Mul', ['S', 'scale'], ['Ss']),
    node('Softmax', ['Ss'], ['P'], { axis: -1 }),
    node('MatMul', ['P', 'vh'], ['Zh']),
    node('Transpose', ['Zh'], ['Zt'], { perm: [1, 0, 2] }), // N x heads x dh
    node('Reshape', ['Zt', 'joinHeads'], ['Z']),
    node('MatMul', ['Z', 'Wo'], ['Y0']),
    node('Add', ['Y0', 'bo'], ['Y']),
  );
  const w = (name, values, dims) => tensor(name, dims, values);
  return model({
    nodes,
    inputs: [['Xq', ['N', D]], ['Xkv', ['M', D]]],
    outputs: [['Y', ['N', D]]],
    initializers: [
      w('Wq', Wq, [D, D]), w('Wk', Wk, [D, D]), w('Wv', Wv, [D, D]), w('Wo', Wo, [D, D]),
      w('bq', bq, [D]), w('bk', bk, [D]), w('bv', bv, [D]), w('bo', bo, [D]),
      tensor('scale', [], Float32Array.of(1 / Math.sqrt(dh))),
      tensor('splitHeads', [3], [0, heads, dh]), // 0 keeps the row count
      tensor('joinHeads', [2], [0, D]),
    ],
  });
}
