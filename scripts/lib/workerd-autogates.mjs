// Adds autogates to the binary capnp workerd Config that Miniflare pipes to workerd's stdin.
// Miniflare 4 builds that config privately and has no option for `autogates @4 :List(Text)`,
// so scripts/workerd-autogates (named by MINIFLARE_WORKERD_PATH) runs this file between the
// two: plain JavaScript so that each workerd start pays no build. Why the local server needs
// a gate at all: docs/decisions/operations.md "SQLite heap limit of the local workerd".
//
// Run as a program: reads the config on stdin, writes it on stdout with the gates named in
// UCP_WORKERD_AUTOGATES (comma-separated). A config it cannot patch (a layout this file does
// not expect) passes through unchanged with a warning: the server still starts.

/** The one gate the local servers need: SQLite's process-wide hard heap limit 512 MiB -> 8 GiB. */
export const SQLITE_HEAP_GATE = "workerd-autogate-increase-sqlite-hard-heap-limit";

const AUTOGATES_POINTER = 4; // Config.autogates @4 is the struct's fifth pointer.
const WORD = 8;

/** The message's segments as views into `buffer` (capnp's standard stream framing). */
function segmentsOf(buffer) {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const count = view.getUint32(0, true) + 1;
  let offset = Math.ceil((4 + 4 * count) / WORD) * WORD;
  const segments = [];
  for (let i = 0; i < count; i++) {
    const bytes = view.getUint32(4 + 4 * i, true) * WORD;
    if (offset + bytes > buffer.byteLength) throw new Error("truncated capnp message");
    segments.push(buffer.subarray(offset, offset + bytes));
    offset += bytes;
  }
  return segments;
}

const viewOf = (segment) => new DataView(segment.buffer, segment.byteOffset, segment.byteLength);

/** The root struct: its segment, first data word, data size and pointer count. */
function rootStruct(segments) {
  let segment = segments[0];
  let at = 0;
  let lo = viewOf(segment).getUint32(0, true);
  if ((lo & 3) === 2) {
    if (lo & 4) throw new Error("double-far root pointer");
    segment = segments[viewOf(segment).getUint32(4, true)];
    at = lo >>> 3;
    lo = viewOf(segment).getUint32(at * WORD, true);
  }
  if ((lo & 3) !== 0) throw new Error("root is not a struct");
  const view = viewOf(segment);
  const start = at + 1 + (lo >> 2);
  return {
    segment,
    start,
    dataWords: view.getUint16(at * WORD + 4, true),
    pointers: view.getUint16(at * WORD + 6, true),
  };
}

/** A new segment: a landing pad for a List(Text) of `gates`, the list, then the texts. */
function gatesSegment(gates) {
  const texts = gates.map((gate) => Buffer.from(gate, "utf8"));
  const words = 1 + texts.length + texts.reduce((sum, text) => sum + Math.ceil((text.length + 1) / WORD), 0);
  const segment = Buffer.alloc(words * WORD);
  const view = viewOf(segment);
  // Landing pad: list pointer, offset 0 (the list follows), element size 6 (pointer).
  view.setUint32(0, 1, true);
  view.setUint32(4, (6 | (texts.length << 3)) >>> 0, true);
  let next = 1 + texts.length;
  for (const [i, text] of texts.entries()) {
    const pointer = 1 + i;
    view.setUint32(pointer * WORD, (((next - pointer - 1) << 2) | 1) >>> 0, true);
    view.setUint32(pointer * WORD + 4, (2 | ((text.length + 1) << 3)) >>> 0, true); // bytes, NUL included
    text.copy(segment, next * WORD);
    next += Math.ceil((text.length + 1) / WORD);
  }
  return segment;
}

/**
 * `config` (a framed binary capnp workerd Config) with `autogates` set to `gates`: the list goes
 * in a segment of its own, reached by a far pointer from the root's autogates field, so no
 * other byte of the config moves. Throws when the root has no autogates field or it is set.
 */
export function withAutogates(config, gates) {
  const segments = segmentsOf(config);
  const root = rootStruct(segments);
  if (root.pointers <= AUTOGATES_POINTER) throw new Error("the Config struct has no autogates field");
  const field = (root.start + root.dataWords + AUTOGATES_POINTER) * WORD;
  const view = viewOf(root.segment);
  if (view.getUint32(field, true) !== 0 || view.getUint32(field + 4, true) !== 0)
    throw new Error("the config already has autogates");
  const added = gatesSegment(gates);
  const all = [...segments.map((segment) => Buffer.from(segment)), added];
  // The copy of the root's segment gets the far pointer: landing pad at word 0 of the new segment.
  const rootIndex = segments.indexOf(root.segment);
  const patched = viewOf(all[rootIndex]);
  patched.setUint32(field, 2, true);
  patched.setUint32(field + 4, segments.length, true);
  const header = Buffer.alloc(Math.ceil((4 + 4 * all.length) / WORD) * WORD);
  header.writeUInt32LE(all.length - 1, 0);
  for (const [i, segment] of all.entries()) header.writeUInt32LE(segment.length / WORD, 4 + 4 * i);
  return Buffer.concat([header, ...all]);
}

/** The gates in a config's autogates field (for the tests: the config workerd was handed). */
export function autogatesOf(config) {
  const segments = segmentsOf(config);
  const root = rootStruct(segments);
  if (root.pointers <= AUTOGATES_POINTER) return [];
  let segment = root.segment;
  let at = root.start + root.dataWords + AUTOGATES_POINTER;
  let lo = viewOf(segment).getUint32(at * WORD, true);
  if (lo === 0 && viewOf(segment).getUint32(at * WORD + 4, true) === 0) return [];
  if ((lo & 3) === 2) {
    const index = viewOf(segment).getUint32(at * WORD + 4, true);
    segment = segments[index];
    at = lo >>> 3;
    lo = viewOf(segment).getUint32(at * WORD, true);
  }
  const view = viewOf(segment);
  const count = view.getUint32(at * WORD + 4, true) >>> 3;
  const list = at + 1 + (lo >> 2);
  const gates = [];
  for (let i = 0; i < count; i++) {
    const pointer = list + i;
    const text = pointer + 1 + (view.getUint32(pointer * WORD, true) >> 2);
    const bytes = (view.getUint32(pointer * WORD + 4, true) >>> 3) - 1;
    gates.push(segment.subarray(text * WORD, text * WORD + bytes).toString("utf8"));
  }
  return gates;
}

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const config = Buffer.concat(chunks);
  const gates = (process.env.UCP_WORKERD_AUTOGATES ?? SQLITE_HEAP_GATE).split(",").filter(Boolean);
  let out = config;
  try {
    if (gates.length > 0) out = withAutogates(config, gates);
  } catch (error) {
    console.error(`workerd-autogates: config passed on without autogates (${error.message})`);
  }
  process.stdout.write(out);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
