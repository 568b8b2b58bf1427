/**
 * Hand-assembled WebAssembly modules for the detection tests: a header, a type section and an import
 * section that imports a memory, shared (a threaded build's) or not.
 */
export function uleb(value: number): number[] {
  const out: number[] = [];
  let n = value;
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

const name = (text: string) => {
  const bytes = [...Buffer.from(text, 'utf8')];
  return [...uleb(bytes.length), ...bytes];
};
const section = (id: number, payload: number[]) => [id, ...uleb(payload.length), ...payload];

/** A module importing `env.memory` (shared: flags 0x03, min 1, max 16) and one function, with a custom section first. */
export function wasmWithMemory({ shared }: { shared: boolean }): Buffer {
  const types = section(1, [1, 0x60, 0, 0]);
  const imports = section(2, [
    2,
    ...name('env'),
    ...name('log'),
    0x00,
    0,
    ...name('env'),
    ...name('memory'),
    0x02,
    ...(shared ? [0x03, 1, 16] : [0x00, 1]),
  ]);
  const custom = section(0, [...name('producers'), 1, 2, 3]);
  return Buffer.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...custom, ...types, ...imports]);
}

/** The shared-memory module with its import section cut short (its declared size runs past the end). */
export function truncatedImportSection(): Buffer {
  const whole = wasmWithMemory({ shared: true });
  return whole.subarray(0, whole.length - 4);
}
