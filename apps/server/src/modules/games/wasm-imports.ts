/**
 * Reads a WebAssembly module's import section: the one question asked of it is whether it imports a
 * shared memory, which a threaded build (emscripten `-pthread`, Godot 4 threads, Unity multithreading) does, and
 * which only a cross-origin-isolated page can give it. A real parser of the binary format (header, sections
 * with LEB128 sizes, import entries), never a text search, with limits on what it reads.
 */

/** Why a module could not be read; the message names what was wrong, for the game files screen. */
export class WasmFormatError extends Error {}

/** The most imports read (real builds have a few hundred; more is no module worth reading). */
export const maxWasmImports = 100_000;

export interface WasmImportSummary {
  /** An imported memory marked shared (the threads proposal's limits flag). */
  sharedMemoryImport: boolean;
  /** The `module.field` of that memory (`env.memory` in emscripten builds), for the reason shown. */
  sharedMemoryName?: string;
  /** How many imports the section holds. */
  imports: number;
}

const wasmMagic = [0x00, 0x61, 0x73, 0x6d];
const sectionImport = 2;
const sectionCustom = 0;

class Reader {
  offset = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private readonly end: number = bytes.length,
  ) {}

  get done(): boolean {
    return this.offset >= this.end;
  }

  byte(what: string): number {
    if (this.offset >= this.end) throw new WasmFormatError(`The module ends inside ${what}.`);
    return this.bytes[this.offset++]!;
  }

  /** An unsigned LEB128 of at most `bits` bits (32 or 64); a 64-bit value is skipped, not converted. */
  uleb(what: string, bits: 32 | 64 = 32): number {
    let result = 0;
    let shift = 0;
    const maxBytes = Math.ceil(bits / 7);
    for (let i = 0; i < maxBytes; i++) {
      const b = this.byte(what);
      if (shift < 32) result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return bits === 32 && result > 0xffffffff ? this.fail(what) : result;
      shift += 7;
    }
    return this.fail(what);
  }

  private fail(what: string): never {
    throw new WasmFormatError(`The module has a malformed number in ${what}.`);
  }

  skip(count: number, what: string): void {
    if (count > this.end - this.offset) throw new WasmFormatError(`The module ends inside ${what}.`);
    this.offset += count;
  }

  name(what: string): string {
    const length = this.uleb(what);
    const start = this.offset;
    this.skip(length, what);
    return new TextDecoder('utf-8', { fatal: false }).decode(this.bytes.subarray(start, start + length));
  }
}

/** Limits: a flags byte, a minimum and (flag 0x01) a maximum; 0x02 marks shared, 0x04 64-bit, 0x08 a page size. */
function readLimits(reader: Reader, what: string): { shared: boolean } {
  const flags = reader.byte(what);
  if (flags > 0x0f)
    throw new WasmFormatError(`The module has unknown limits (0x${flags.toString(16)}) in ${what}.`);
  const bits = flags & 0x04 ? 64 : 32;
  reader.uleb(what, bits);
  if (flags & 0x01) reader.uleb(what, bits);
  if (flags & 0x08) reader.uleb(what);
  return { shared: (flags & 0x02) !== 0 };
}

/**
 * The imports of a module, from its first bytes (`bytes` may be a prefix of the file: the import section comes
 * right after the type section, near the start). Throws WasmFormatError for bytes that are no module, a section
 * that runs past what was read, or an import the format does not know.
 */
export function readWasmImports(bytes: Uint8Array): WasmImportSummary {
  if (bytes.length < 8 || wasmMagic.some((b, i) => bytes[i] !== b)) {
    throw new WasmFormatError('It does not start with the WebAssembly signature (\\0asm).');
  }
  const version = bytes[4]! | (bytes[5]! << 8) | (bytes[6]! << 16) | (bytes[7]! << 24);
  if (version !== 1) throw new WasmFormatError(`It is WebAssembly version ${version}, not 1.`);
  const reader = new Reader(bytes);
  reader.skip(8, 'the header');
  while (!reader.done) {
    const id = reader.byte('a section id');
    const size = reader.uleb('a section size');
    if (id === sectionImport) {
      if (size > bytes.length - reader.offset)
        throw new WasmFormatError('The import section is cut short (or lies beyond what was read).');
      return readImportSection(new Reader(bytes, reader.offset + size), reader.offset);
    }
    // Sections come in order (custom ones anywhere): past the type section without imports, there are none.
    if (id !== sectionCustom && id > sectionImport) return { sharedMemoryImport: false, imports: 0 };
    if (id > 13) throw new WasmFormatError(`It has an unknown section (id ${id}).`);
    reader.skip(size, `section ${id}`);
  }
  return { sharedMemoryImport: false, imports: 0 };
}

function readImportSection(reader: Reader, start: number): WasmImportSummary {
  reader.skip(start, 'the import section');
  const count = reader.uleb('the import count');
  if (count > maxWasmImports)
    throw new WasmFormatError(`It declares ${count} imports (at most ${maxWasmImports} are read).`);
  const summary: WasmImportSummary = { sharedMemoryImport: false, imports: count };
  for (let i = 0; i < count; i++) {
    const what = `import ${i + 1} of ${count}`;
    const module = reader.name(what);
    const field = reader.name(what);
    const kind = reader.byte(what);
    switch (kind) {
      case 0x00: // function: a type index
        reader.uleb(what);
        break;
      case 0x01: // table: a reference type and limits
        reader.byte(what);
        readLimits(reader, what);
        break;
      case 0x02: {
        // memory: limits
        const { shared } = readLimits(reader, what);
        if (shared && !summary.sharedMemoryImport) {
          summary.sharedMemoryImport = true;
          summary.sharedMemoryName = `${module}.${field}`;
        }
        break;
      }
      case 0x03: // global: a value type and mutability
        reader.byte(what);
        reader.byte(what);
        break;
      case 0x04: // tag (exception handling): an attribute and a type index
        reader.byte(what);
        reader.uleb(what);
        break;
      default:
        throw new WasmFormatError(`It has an import of unknown kind 0x${kind.toString(16)} (${what}).`);
    }
  }
  return summary;
}
