// Short names for what a wasm module imports from its wasm-bindgen glue. wasm-bindgen
// names each import after its function and a hash (`__wbg_setattribute_3c9f1b0a9e3d2f41`):
// about 220 of them, written once in the module and once in the glue, whose hashes
// gzip cannot shrink. Renamed `a`, `b`, … in both, the page's first visit is 6 KB
// lighter gzipped.
//
// Only the import section's names change; every other byte of the module is copied as
// it is (binaryen would write the whole module again). In the glue, each name is the
// key of one function in the imports object (`{__wbg_…:function(…){…},…}`); a name
// found there any other number of times than once stops the build.

/** The module and glue with short import names, or why they cannot be renamed. */
export function withShortImports(wasm, glue) {
  const renamed = new Map();
  const sections = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at];
    const [size, start] = leb128(wasm, at + 1);
    const end = start + size;
    if (id === IMPORT_SECTION) {
      const content = renamedImports(wasm.subarray(start, end), renamed);
      sections.push(Uint8Array.of(IMPORT_SECTION), encodeLeb128(content.length), content);
    } else {
      sections.push(wasm.subarray(at, end));
    }
    at = end;
  }
  let code = glue;
  for (const [name, short] of renamed) {
    const key = new RegExp(`(?<=[{,])${name.replace(/\$/g, '\\$')}(?=:)`, 'g');
    const found = code.match(key)?.length ?? 0;
    if (found !== 1) throw new Error(`the glue has the import ${name} as a key ${found} times, not once`);
    code = code.replace(key, short);
  }
  return { wasm: Buffer.concat(sections), glue: code, renamed: renamed.size };
}

const IMPORT_SECTION = 2;
/** The module wasm-bindgen's glue is imported as: `./playground_bg.js`. */
const GLUE_MODULE = /^\.\/[^/]*_bg\.js$/;
const NAME_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';

/** `a`, `b`, …, `$`, `aa`, `ab`, …: a name a JavaScript key can be without quotes. */
function shortName(index) {
  let name = '';
  do {
    name = NAME_CHARACTERS[index % NAME_CHARACTERS.length] + name;
    index = Math.floor(index / NAME_CHARACTERS.length) - 1;
  } while (index >= 0);
  return name;
}

/** The import section with the glue's imports renamed; `renamed` maps old names to new. */
function renamedImports(section, renamed) {
  let [count, at] = leb128(section, 0);
  const entries = [encodeLeb128(count)];
  for (let index = 0; index < count; index++) {
    let module, field;
    [module, at] = readName(section, at);
    [field, at] = readName(section, at);
    const description = at;
    at = afterDescription(section, at);
    let name = field;
    if (GLUE_MODULE.test(module)) {
      name = shortName(renamed.size);
      renamed.set(field, name);
    }
    entries.push(encodeName(module), encodeName(name), section.subarray(description, at));
  }
  if (at !== section.length) throw new Error('the import section is longer than its imports');
  return Buffer.concat(entries);
}

/** Where an import's description (its kind and type) ends. */
function afterDescription(bytes, at) {
  const kind = bytes[at++];
  const limits = () => {
    const flags = bytes[at++];
    [, at] = leb128(bytes, at);
    if (flags & 1) [, at] = leb128(bytes, at);
  };
  switch (kind) {
    case 0: // a function: its type's index
      return leb128(bytes, at)[1];
    case 1: // a table: its element type, then its limits
      at++;
      limits();
      return at;
    case 2: // a memory: its limits
      limits();
      return at;
    case 3: // a global: its value type and mutability
      return at + 2;
    case 4: // a tag: its attribute and type index
      return leb128(bytes, at + 1)[1];
    default:
      throw new Error(`an import of unknown kind ${kind}`);
  }
}

function leb128(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

function encodeLeb128(value) {
  const bytes = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    bytes.push(byte);
  } while (value);
  return Uint8Array.from(bytes);
}

function readName(bytes, at) {
  const [length, start] = leb128(bytes, at);
  return [Buffer.from(bytes.subarray(start, start + length)).toString('utf8'), start + length];
}

function encodeName(text) {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([encodeLeb128(bytes.length), bytes]);
}
