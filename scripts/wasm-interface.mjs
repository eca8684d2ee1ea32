// The boundary between a wasm module and wasm-bindgen's JavaScript glue, made
// small: the module exports only what the glue uses, and both sides call each
// other by short names. wasm-bindgen names each import `__wbg_<method>_<16 hex
// digits>` and each closure export after its full Rust type; the hex digits in
// particular are in both files and gzip cannot shrink them.
//
// Why by hand, not binaryen's wasm-metadce (unused exports) and wasm-opt
// `--minify-imports-and-exports-and-modules` (names, with a mapping), which do
// the same job: measured on this app (2026-12-01), the binaryen route gives a
// module of the same raw size that gzips 4.1–9.4 KiB larger (wasm-metadce
// rebuilds the module in an order that compresses worse). What would break
// this code: a wasm-bindgen that names the glue's module otherwise than
// `./<name>_bg.js`, writes imports as anything but `<name>:` keys, or reads
// exports otherwise than `wasm.<name>`; each is checked below and fails the
// build loudly. A wasm section layout change would be a new wasm version.

/** wasm-opt's flags for the features rustc's wasm32 target emits (more would
 * let wasm-opt use instructions older browsers lack). */
export const FEATURE_FLAGS = ["bulk-memory", "nontrapping-float-to-int", "sign-ext", "reference-types", "multivalue", "mutable-globals"].map(
  (f) => `--enable-${f}`,
);

/** Unsigned LEB128 at `at`: `[value, offset after it]`. */
function leb(bytes, at) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, at];
  }
}

function lebBytes(n) {
  const out = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return out;
}

const utf8 = new TextDecoder();
const encode = (s) => {
  const b = new TextEncoder().encode(s);
  return [...lebBytes(b.length), ...b];
};

/** The name at `at`: `[string, offset after it]`. */
function name(bytes, at) {
  const [n, start] = leb(bytes, at);
  return [utf8.decode(bytes.subarray(start, start + n)), start + n];
}

/** Offset after an import's description (`at`: its kind byte). */
function skipImportDesc(bytes, at, what) {
  const kind = bytes[at++];
  if (kind === 0) return leb(bytes, at)[1]; // function: type index
  if (kind === 1 || kind === 2) {
    if (kind === 1) at++; // table: element type
    const flags = bytes[at++];
    at = leb(bytes, at)[1];
    return flags & 1 ? leb(bytes, at)[1] : at;
  }
  if (kind === 3) return at + 2; // global: value type, mutability
  throw new Error(`import ${what}: kind ${kind} is not handled`);
}

/** A short name for the `i`th rename: `_0`, `_1`, … `_a`, … */
const short = (i) => "_" + i.toString(36);

/** The glue's own module, as the wasm imports it: `./<out-name>_bg.js`. */
const isGlue = (module) => /^\.\/[^/]+_bg\.js$/.test(module);

/**
 * Rewrites the module's import and export sections, and drops its custom
 * sections. Function imports from
 * the glue get short names; so does the glue's module. Exports not in `used`
 * are dropped (wasm-opt then drops the code only they reached); used exports
 * with long names get short ones. Returns the bytes and the renames
 * (`imports`, `exports`: old → new; `module`: [old, new]).
 */
export function shrinkInterface(bytes, used) {
  const imports = new Map();
  const exports = new Map();
  const module = [undefined, "w"];
  const out = [bytes.subarray(0, 8)];
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const [size, body] = leb(bytes, at + 1);
    const end = body + size;
    if (id === 0) {
      // Custom sections (producers, target features, a wasm-split marker) tell a browser nothing.
      at = end;
      continue;
    }
    if (id !== 2 && id !== 7) {
      out.push(bytes.subarray(at, end));
      at = end;
      continue;
    }
    let [count, p] = leb(bytes, body);
    const entries = [];
    for (let i = 0; i < count; i++) {
      if (id === 2) {
        let [mod, afterMod] = name(bytes, p);
        let [field, afterField] = name(bytes, afterMod);
        const next = skipImportDesc(bytes, afterField, `${mod}.${field}`);
        if (isGlue(mod)) {
          if (module[0] !== undefined && module[0] !== mod) throw new Error(`two glue modules: ${module[0]}, ${mod}`);
          module[0] = mod;
          mod = module[1];
          if (bytes[afterField] === 0) {
            const to = short(imports.size);
            imports.set(field, to);
            field = to;
          }
        }
        entries.push([...encode(mod), ...encode(field), ...bytes.subarray(afterField, next)]);
        p = next;
      } else {
        let [field, afterField] = name(bytes, p);
        const next = leb(bytes, afterField + 1)[1]; // kind, index
        if (used.has(field)) {
          if (field.length > 6) {
            const to = short(exports.size);
            exports.set(field, to);
            field = to;
          }
          entries.push([...encode(field), ...bytes.subarray(afterField, next)]);
        }
        p = next;
      }
    }
    if (p !== end) throw new Error(`section ${id}: its entries do not fill it`);
    const section = [...lebBytes(entries.length), ...entries.flat()];
    out.push(Uint8Array.of(id, ...lebBytes(section.length)), Uint8Array.from(section));
    at = end;
  }
  return { bytes: Buffer.concat(out), renames: { imports, exports, module } };
}

/** The export names the glue reads (`wasm.name`). */
export function usedExports(js) {
  return new Set([...js.matchAll(/\bwasm\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]));
}

/** The glue calling the module by the names `shrinkInterface` gave. */
export function renameInGlue(js, { imports, exports, module: [glueModule, module] }) {
  const replaceAll = (re, to, what, expect) => {
    const n = (js.match(re) ?? []).length;
    if (expect !== undefined && n !== expect) throw new Error(`glue: ${what} found ${n} times, expected ${expect}`);
    js = js.replace(re, to);
  };
  for (const [from, to] of imports) replaceAll(new RegExp(`\\b${from}:`, "g"), `${to}:`, `import key ${from}`, 1);
  for (const [from, to] of exports) replaceAll(new RegExp(`\\bwasm\\.${from}\\b`, "g"), `wasm.${to}`, `wasm.${from}`);
  const quoted = `"${glueModule}":`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  replaceAll(new RegExp(quoted, "g"), `"${module}":`, `module key "${glueModule}"`, 1);
  const left = [...[...imports.keys()].map((f) => `\\b${f}\\b`), ...[...exports.keys()].map((f) => `\\bwasm\\.${f}\\b`)];
  for (const re of left) if (new RegExp(re).test(js)) throw new Error(`glue: ${re} is still used after the renames`);
  return js;
}
