import { describe, expect, it } from 'vitest';
import { truncatedImportSection, uleb, wasmWithMemory } from '../../../test/support/wasm-samples';
import { WasmFormatError, maxWasmImports, readWasmImports } from './wasm-imports';

describe('the WebAssembly import section reader', () => {
  it('finds a shared memory import, and none in a module whose memory is not shared', () => {
    expect(readWasmImports(wasmWithMemory({ shared: true }))).toEqual({
      sharedMemoryImport: true,
      sharedMemoryName: 'env.memory',
      imports: 2,
    });
    expect(readWasmImports(wasmWithMemory({ shared: false }))).toEqual({
      sharedMemoryImport: false,
      imports: 2,
    });
  });

  it('answers no imports for a module without an import section', () => {
    const module = Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 3, 2, 1, 0]);
    expect(readWasmImports(module)).toEqual({ sharedMemoryImport: false, imports: 0 });
    expect(readWasmImports(module.subarray(0, 8))).toEqual({ sharedMemoryImport: false, imports: 0 });
  });

  it('refuses what is no module, a cut-short import section and absurd counts with a WasmFormatError', () => {
    const bad = [
      Buffer.from('<!doctype html>not wasm'),
      Buffer.alloc(0),
      Buffer.from([0, 0x61, 0x73, 0x6d, 2, 0, 0, 0]),
      truncatedImportSection(),
      // an import count over the limit
      Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 2, 5, ...uleb(maxWasmImports + 1)]),
      // a LEB128 size that never ends
      Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      // an import of an unknown kind
      Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 2, 6, 1, 1, 0x61, 1, 0x62, 0x09]),
    ];
    for (const bytes of bad)
      expect(() => readWasmImports(bytes), bytes.toString('hex')).toThrow(WasmFormatError);
  });
});
