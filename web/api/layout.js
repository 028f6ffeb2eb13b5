// layout.js: the C structs the API writes and reads in wasm memory, laid out
// as the module itself reports (src/layout.c: attn_layout_name and
// attn_layout_value), so no offset is written twice. Structs are written by
// field name; a field the module does not report is an Error, not a silent
// write to the wrong place.

const layouts = new WeakMap(); // exports -> {struct name: {size, fields: {name: {offset, kind}}}}

/** The NUL-terminated UTF-8 string at ptr in wasm memory. */
export function cString(ex, ptr) {
  const bytes = new Uint8Array(ex.memory.buffer, ptr);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
}

/** Every struct layout one instance reports, read once. */
export function layoutOf(ex) {
  let structs = layouts.get(ex);
  if (structs) return structs;
  structs = {};
  for (let i = 0; ; i++) {
    const ptr = ex.attn_layout_name(i) >>> 0;
    if (ptr === 0) break;
    const [path, kind] = cString(ex, ptr).split(' ');
    const [struct, field] = path.split('.');
    const s = (structs[struct] ??= { size: 0, fields: {} });
    const value = ex.attn_layout_value(i);
    if (field === undefined) s.size = value;
    else s.fields[field] = { offset: value, kind };
  }
  layouts.set(ex, structs);
  return structs;
}

function structOf(structs, name) {
  const s = structs[name];
  if (!s) throw new Error(`attention-wasm: the module reports no struct ${name}`);
  return s;
}

function fieldOf(structs, name, field) {
  const f = structOf(structs, name).fields[field];
  if (!f) throw new Error(`attention-wasm: the module reports no field ${name}.${field}`);
  return f;
}

/** Bytes of struct `name`. */
export const sizeOf = (ex, name) => structOf(layoutOf(ex), name).size;

/**
 * Writes `values` ({field: number, or an object for a struct field}) into
 * struct `name` at ptr; fields not named keep what is there.
 */
export function writeStruct(ex, name, ptr, values) {
  const structs = layoutOf(ex);
  const view = new DataView(ex.memory.buffer);
  for (const [field, value] of Object.entries(values)) {
    const { offset, kind } = fieldOf(structs, name, field);
    if (structs[kind]) writeStruct(ex, kind, ptr + offset, value);
    else if (kind === 'f32') view.setFloat32(ptr + offset, value, true);
    else if (kind === 'i32') view.setInt32(ptr + offset, value, true);
    else view.setUint32(ptr + offset, value, true); // ptr, size: unsigned 32-bit words
  }
}

/** Struct `name` at ptr as {field: number, or an object for a struct field}. */
export function readStruct(ex, name, ptr) {
  const structs = layoutOf(ex);
  const view = new DataView(ex.memory.buffer);
  const out = {};
  for (const [field, { offset, kind }] of Object.entries(structOf(structs, name).fields)) {
    if (structs[kind]) out[field] = readStruct(ex, kind, ptr + offset);
    else if (kind === 'f32') out[field] = view.getFloat32(ptr + offset, true);
    else if (kind === 'i32') out[field] = view.getInt32(ptr + offset, true);
    else out[field] = view.getUint32(ptr + offset, true);
  }
  return out;
}
