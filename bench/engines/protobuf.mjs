// protobuf.mjs: the few protobuf wire-format writers an ONNX ModelProto needs.
// A message is built as a list of Uint8Array chunks, then joined once.

const VARINT = 0;
const I32 = 5;
const LEN = 2;

function varint(value) {
  // BigInt so that int64 fields (dims, ir_version) cannot lose bits.
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes = [];
  while (v >= 0x80n) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return Uint8Array.from(bytes);
}

const tag = (field, wire) => varint((field << 3) | wire);
const utf8 = new TextEncoder();

/** Accumulates the fields of one message; `bytes()` gives its encoding. */
export class Message {
  constructor() {
    this.chunks = [];
  }
  int(field, value) {
    this.chunks.push(tag(field, VARINT), varint(value));
    return this;
  }
  float(field, value) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.chunks.push(tag(field, I32), b);
    return this;
  }
  bytesField(field, bytes) {
    this.chunks.push(tag(field, LEN), varint(bytes.length), bytes);
    return this;
  }
  string(field, text) {
    return this.bytesField(field, utf8.encode(text));
  }
  message(field, msg) {
    return this.bytesField(field, msg.bytes());
  }
  bytes() {
    const total = this.chunks.reduce((s, c) => s + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}
