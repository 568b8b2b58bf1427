import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { truncatedImportSection, wasmWithMemory } from '../../../test/support/wasm-samples';
import { detectPlaySettings, type DetectedFile } from './play-detection';

/** Detection over in-memory files (path → bytes). */
function detect(files: Record<string, Buffer | string>) {
  const stored = new Map(Object.entries(files).map(([path, content]) => [path, Buffer.from(content)]));
  const list: DetectedFile[] = [...stored].map(([path, content]) => ({
    path,
    storageKey: path,
    size: content.length,
  }));
  return detectPlaySettings(list, async (file, bytes) => stored.get(file.storageKey)?.subarray(0, bytes));
}

const framework = 'var unityFramework = function () { return 1; };\n'.repeat(50);

describe('play settings detection', () => {
  it('decides encoded for a Unity loader, by name', async () => {
    for (const loader of [
      'Build/game.loader.js',
      'web/Build/My Game.loader.js',
      'Build/UnityLoader.js',
      'UnityLoader.js',
    ]) {
      const result = await detect({
        'index.html': '<script>',
        [loader]: 'createUnityInstance',
        'Build/game.data.gz': gzipSync('x'),
      });
      expect(result.precompressedDecided, loader).toBe('encoded');
      expect(result.precompressedReason, loader).toContain(loader);
    }
  });

  it('decides encoded for a Unity framework that really is gzip or brotli, and names a mislabelled one', async () => {
    expect((await detect({ 'b/game.framework.js.gz': gzipSync(framework) })).precompressedDecided).toBe(
      'encoded',
    );
    expect(
      (await detect({ 'b/game.framework.js.br': brotliCompressSync(framework) })).precompressedDecided,
    ).toBe('encoded');
    expect(
      (await detect({ 'b/game.wasm.unityweb': brotliCompressSync(framework) })).precompressedReason,
    ).toContain('brotli');
    const fake = await detect({ 'b/game.framework.js.gz': framework, 'b/game.unityweb': 'not packed' });
    expect(fake.precompressedDecided).toBe('stored');
    expect(fake.precompressedReason).toContain('b/game.framework.js.gz is not gzip data');
    expect(fake.precompressedReason).toContain('b/game.unityweb is not gzip or brotli data');
  });

  it('decides stored for anything else, saying which compressed files it means', async () => {
    const godot = await detect({
      'index.html': '<script>',
      'index.js': 'var Engine',
      'index.wasm.gz': gzipSync(wasmWithMemory({ shared: false })),
      'index.pck.gz': gzipSync('pck'),
    });
    expect(godot.precompressedDecided).toBe('stored');
    expect(godot.precompressedReason).toContain('index.pck.gz');
    expect((await detect({ 'index.html': '<p>' })).precompressedReason).toContain('no .gz or .br files');
  });

  it('decides isolated for a module importing a shared memory, plain or compressed', async () => {
    for (const [path, bytes] of [
      ['Build/game.wasm', wasmWithMemory({ shared: true })],
      ['index.wasm.gz', gzipSync(wasmWithMemory({ shared: true }))],
      ['Build/game.wasm.br', brotliCompressSync(wasmWithMemory({ shared: true }))],
    ] as const) {
      const result = await detect({ [path]: bytes });
      expect(result.isolatedDecided, path).toBe(true);
      expect(result.isolatedReason, path).toContain(`${path} imports a shared memory (env.memory)`);
    }
    expect((await detect({ 'game.wasm': wasmWithMemory({ shared: false }) })).isolatedDecided).toBe(false);
  });

  it('decides isolated for an emscripten loader beside its module that uses PThread or SharedArrayBuffer', async () => {
    const module = wasmWithMemory({ shared: false });
    const pthread = await detect({
      'game.wasm': module,
      'game.js': 'var Module; var PThread = { init() {} };',
    });
    expect(pthread).toMatchObject({ isolatedDecided: true });
    expect(pthread.isolatedReason).toContain('game.js');
    expect(
      (await detect({ 'game.wasm': module, 'game.js': 'new SharedArrayBuffer(8)' })).isolatedDecided,
    ).toBe(true);
    // Only the loader beside a module counts: a library elsewhere that mentions SharedArrayBuffer does not.
    expect(
      (await detect({ 'game.wasm': module, 'lib/other.js': 'x instanceof SharedArrayBuffer' }))
        .isolatedDecided,
    ).toBe(false);
  });

  it('falls back to the defaults on bad files and says so', async () => {
    const result = await detect({
      'a.wasm': '<!doctype html> an error page saved as wasm',
      'b.wasm': truncatedImportSection(),
      'c.wasm.gz': 'not gzip at all',
      'd.framework.js.gz': 'not gzip either',
      'e.wasm': '',
    });
    expect(result.isolatedDecided).toBe(false);
    expect(result.precompressedDecided).toBe('stored');
    expect(result.isolatedReason).toContain('a.wasm is not a readable WebAssembly module');
    expect(result.isolatedReason).toContain('b.wasm is not a readable WebAssembly module');
    expect(result.isolatedReason).toContain('c.wasm.gz is not gzip data');
    expect(result.precompressedReason).toContain('d.framework.js.gz is not gzip data');
  });

  it('names a file it could not read and goes on', async () => {
    const result = await detectPlaySettings(
      [{ path: 'gone.wasm', storageKey: 'gone', size: 100 }],
      async () => {
        throw new Error('storage down');
      },
    );
    expect(result).toMatchObject({ isolatedDecided: false, precompressedDecided: 'stored' });
    expect(result.isolatedReason).toContain('gone.wasm could not be read');
  });
});
