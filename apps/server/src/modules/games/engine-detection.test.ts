import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { gameEngineNames, type GameEngine } from '@reskin/contract';
import { detectEngine, engineLimits, type EngineInputFile, type ReadHead } from './engine-detection';

/** Real builds of public games, cut to what detection reads (test/fixtures/engines/LICENSES.md names each source). */
const fixtures = fileURLToPath(new URL('../../../test/fixtures/engines', import.meta.url));

/** The engine each fixture folder holds. */
const expected: Record<string, GameEngine> = {
  unity: 'Unity',
  godot: 'Godot',
  defold: 'Defold',
  emscripten: 'emscripten',
  construct: 'Construct',
  phaser: 'Phaser',
  melonjs: 'melonJS',
  three: 'three.js',
  hexi: 'Hexi',
};

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** A fixture set as detection sees an uploaded game: its paths, sizes, and reads of its first bytes. */
async function fixtureSet(dir: string): Promise<{ files: EngineInputFile[]; readHead: ReadHead }> {
  const absolute = new Map<string, string>();
  const files: EngineInputFile[] = [];
  for (const file of await filesUnder(dir)) {
    const path = relative(dir, file).split(sep).join('/');
    absolute.set(path, file);
    files.push({ path, size: (await stat(file)).size });
  }
  const readHead: ReadHead = async (file, length) => {
    const handle = await open(absolute.get(file.path)!, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  };
  return { files, readHead };
}

/** A game given as paths and contents (synthetic cases), with every read recorded. */
function game(contents: Record<string, string | Buffer | { size: number; head: Buffer }>) {
  const reads: { path: string; length: number }[] = [];
  const files = Object.entries(contents).map(([path, content]) => ({
    path,
    size:
      typeof content === 'string'
        ? Buffer.byteLength(content)
        : Buffer.isBuffer(content)
          ? content.length
          : content.size,
  }));
  const readHead: ReadHead = async (file, length) => {
    reads.push({ path: file.path, length });
    const content = contents[file.path]!;
    const bytes =
      typeof content === 'string' ? Buffer.from(content) : Buffer.isBuffer(content) ? content : content.head;
    return bytes.subarray(0, length);
  };
  return { files, readHead, reads };
}

describe('engine detection on real builds', async () => {
  const engines = (await readdir(fixtures, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it('has a fixture for at least Unity, Godot, Defold, emscripten and Construct', () => {
    expect(engines).toEqual(expect.arrayContaining(['unity', 'godot', 'defold', 'emscripten', 'construct']));
    expect(engines.every((engine) => expected[engine] !== undefined)).toBe(true);
  });

  for (const engine of engines) {
    for (const set of await readdir(join(fixtures, engine))) {
      it(`recognises ${engine}/${set} as ${expected[engine]}`, async () => {
        const { files, readHead } = await fixtureSet(join(fixtures, engine, set));
        expect(files.length).toBeGreaterThan(0);
        await expect(detectEngine(files, readHead)).resolves.toBe(expected[engine]);
      });
    }
  }
});

describe('engine detection rules', () => {
  it('answers only names of the contract', async () => {
    const { files, readHead } = game({ 'index.html': '<canvas></canvas>', 'lib/phaser.min.js': '' });
    expect(gameEngineNames).toContain(await detectEngine(files, readHead));
  });

  it('recognises GDevelop and PlayCanvas exports by the files their editors write', async () => {
    const gdevelop = game({
      'index.html': '',
      'gd.js': 'var gdjs={}',
      'runtimegame.js': 'x',
      'pixi-renderers/pixi.js': 'x',
      'code0.js': 'x',
    });
    expect(await detectEngine(gdevelop.files, gdevelop.readHead)).toBe('GDevelop');
    const playCanvas = game({
      'index.html': '',
      '__start__.js': '(function(){})',
      'config.json': '{}',
      'playcanvas-stable.min.js': 'x',
    });
    expect(await detectEngine(playCanvas.files, playCanvas.readHead)).toBe('PlayCanvas');
  });

  it('prefers the packed engine over the emscripten build it is made of, and a library over a wasm it loads', async () => {
    const defold = game({
      'dmloader.js': '',
      'archive/game.arcd0': 'x',
      'archive/game.dmanifest0': 'x',
      'game.wasm': Buffer.from('\0asm'),
      'game_wasm.js': 'var Module = typeof Module',
    });
    expect(await detectEngine(defold.files, defold.readHead)).toBe('Defold');
    const phaser = game({
      'index.html': '',
      'bundle.js': '!function(t,e){define("Phaser",[],e)}',
      'ammo.wasm': Buffer.from('\0asm'),
      'ammo.wasm.js': 'var Module = typeof Module',
    });
    expect(await detectEngine(phaser.files, phaser.readHead)).toBe('Phaser');
  });

  it('needs the emscripten loader and a real module: a .wasm that is not WebAssembly is not enough', async () => {
    const notWasm = game({
      'index.html': '',
      'game.wasm': 'this is not wasm',
      'game.js': 'var Module = typeof Module != "undefined" ? Module : {};',
    });
    expect(await detectEngine(notWasm.files, notWasm.readHead)).toBeNull();
    const wasm = game({
      'index.html': '',
      'game.wasm': Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
      'game.js': 'var Module = typeof Module != "undefined" ? Module : {};',
    });
    expect(await detectEngine(wasm.files, wasm.readHead)).toBe('emscripten');
  });

  it("names three.js in a bundler's output: an ES module importing `three`, minified, with or without its licence comment", async () => {
    const entry =
      "import * as THREE from 'three'; const scene = new THREE.Scene(); scene.add(new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshBasicMaterial())); new THREE.WebGLRenderer().render(scene, new THREE.PerspectiveCamera());";
    for (const legalComments of ['eof', 'none'] as const) {
      const built = await build({
        stdin: { contents: entry, resolveDir: import.meta.dirname },
        bundle: true,
        minify: true,
        format: 'esm',
        legalComments,
        write: false,
      });
      const bundle = Buffer.from(built.outputFiles[0]!.contents);
      expect(bundle.subarray(0, engineLimits.headBytes).toString()).not.toMatch(
        /Three\.js Authors|__THREE__/,
      );
      const { files, readHead } = game({
        'index.html': '<script type="module" src="./assets/index-3f9a1c.js"></script>',
        'assets/index-3f9a1c.js': bundle,
        'assets/crate-8d2e.png': 'x',
      });
      expect(await detectEngine(files, readHead), legalComments).toBe('three.js');
    }
  });

  it('names Hexi by its loader, its banner or a script creating it, and keeps Pixi for plain Pixi games (decision 0052)', async () => {
    // hexi.min.js starts with the UMD head of the Pixi it bundles (`g.PIXI=f()`): its name says Hexi.
    const umdHead =
      '(function(f){if(typeof exports==="object"){module.exports=f()}else{var g;g=window;g.PIXI=f()}})(function(){';
    const named = game({
      'tutorials/04_game.html': '',
      'bin/hexi.min.js': umdHead,
      'tutorials/bin/game.js': 'var g = 1;',
    });
    expect(await detectEngine(named.files, named.readHead)).toBe('Hexi');
    // The bundle renamed: the game's script creating its Hexi instance says it.
    const renamed = game({
      'index.html': '',
      'lib/engine.js': umdHead,
      'main.js': 'var thingsToLoad = [];\nvar g = hexi(512, 512, setup, thingsToLoad);',
    });
    expect(await detectEngine(renamed.files, renamed.readHead)).toBe('Hexi');
    // Hexi's own source (bin/core.js) opens with its banner.
    const source = game({
      'index.html': '',
      'js/core.js': '"use strict";\n/*\nHexi\n====\n\nWelcome to Hexi\'s source code!\n*/',
    });
    expect(await detectEngine(source.files, source.readHead)).toBe('Hexi');
    // Plain Pixi: by name, or by the UMD head alone.
    const pixi = game({
      'index.html': '',
      'js/pixi.min.js': '/*!\n * pixi.js - v4.8.9\n */',
      'js/game.js': 'const app = new PIXI.Application();',
    });
    expect(await detectEngine(pixi.files, pixi.readHead)).toBe('Pixi');
    const bundled = game({
      'index.html': '',
      'js/vendor.js': umdHead,
      'js/game.js': 'const app = new PIXI.Application();',
    });
    expect(await detectEngine(bundled.files, bundled.readHead)).toBe('Pixi');
  });

  it('answers null for a plain game', async () => {
    const plain = game({
      'index.html': '<script src="game.js"></script>',
      'game.js': 'const ctx = canvas.getContext("2d");',
      'img/bird.png': 'x',
    });
    expect(await detectEngine(plain.files, plain.readHead)).toBeNull();
    expect(await detectEngine([], plain.readHead)).toBeNull();
  });
});

describe('engine detection on bad input', () => {
  it('reads only the head of a huge script and of a binary one, and a bounded part of the huge one as a possible bundle, and answers null', async () => {
    const huge = { size: 2 * 1024 * 1024 * 1024, head: Buffer.alloc(engineLimits.headBytes, 'a') };
    const binary = Buffer.from(Array.from({ length: 9000 }, (_, index) => (index * 131) % 256));
    const { files, readHead, reads } = game({
      'index.html': '',
      'huge.js': huge,
      'binary.js': binary,
      'game.data': 'x',
    });
    expect(await detectEngine(files, readHead)).toBeNull();
    expect(reads.length).toBeGreaterThan(0);
    const heads = reads.filter((read) => read.length <= engineLimits.headBytes);
    expect(reads.filter((read) => read.length > engineLimits.headBytes)).toEqual([
      { path: 'huge.js', length: engineLimits.bundleBytes },
    ]);
    // One head read per file however many rules ask for its head.
    expect(new Set(heads.map((read) => read.path)).size).toBe(heads.length);
  });

  it('reads at most the bounded number of heads', async () => {
    const many = Object.fromEntries(
      Array.from({ length: 500 }, (_, index) => [`js/part${index}.js`, 'var x = 1;']),
    );
    const { files, readHead, reads } = game({ 'index.html': '', ...many });
    expect(await detectEngine(files, readHead)).toBeNull();
    expect(reads.length).toBeLessThanOrEqual(engineLimits.scriptHeads);
  });

  it('takes names with odd characters as names, and a read that fails as a file without a signature', async () => {
    const odd = game({
      'ïñdëx (1).html': '',
      'js/ünïcødé 🎮 [v2]{x}$&.js': 'var a;',
      'js/..phaser': 'x',
      '%2e%2e/x.pck': 'NOTGDPC',
      'a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z.js': Buffer.from([0xff, 0xfe, 0x00, 0x01]),
    });
    expect(await detectEngine(odd.files, odd.readHead)).toBeNull();
    const failing: ReadHead = async () => {
      throw new Error('storage is down');
    };
    const files = [
      { path: 'index.pck', size: 100 },
      { path: 'index.js', size: 100 },
    ];
    expect(await detectEngine(files, failing)).toBeNull();
  });
});
