import { posix } from 'node:path';
import type { GameEngine } from '@reskin/contract';
import { extensionOf } from '../../lib/game-paths';

/**
 * Which engine a game was built with, from its file names and the first bytes of a few of its files.
 * It never parses a whole file: a loader's head (engineLimits.headBytes) is searched for the banner or
 * loader signature its engine writes there, and a pack's first four bytes for its magic number. Every read is
 * bounded (engineLimits), so a huge or binary file costs one small read and at worst answers nothing.
 *
 * The rules go from the most specific to the least, first match wins: the packed engines (Unity, Godot,
 * Defold) and the editors that export a runtime of their own (Construct, GDevelop, PlayCanvas) before the
 * JavaScript libraries (Phaser, melonJS, three.js, Hexi before the Pixi it bundles, Pixi), and emscripten last: Unity, Godot and Defold are
 * emscripten builds themselves, GDevelop and Phaser 2 carry Pixi, and a library game may load a wasm physics
 * module.
 */

/** A game file as detection sees it: its path in the game and its size in bytes. */
export interface EngineInputFile {
  path: string;
  size: number;
}

/**
 * Reads the first `length` bytes of a file (fewer when it is shorter), or undefined when it cannot be read;
 * detection then treats the file as one without a signature.
 */
export type ReadHead = (file: EngineInputFile, length: number) => Promise<Buffer | undefined>;

export const engineLimits = {
  /** Bytes read from the start of a script: banners and loader signatures sit in the first lines. */
  headBytes: 4096,
  /** Scripts whose head is read at most, the shallowest first (a game's loaders sit near its index). */
  scriptHeads: 64,
  /** Packs (.pck) and modules (.wasm) whose magic number is read at most. */
  magicReads: 8,
  /** Heads read at once. */
  parallelReads: 8,
  /** Scripts at least this big may be bundles (three.js alone is over 400 KB minified). */
  bundleMinBytes: 64 * 1024,
  /** Bundles searched whole at most, the biggest first, one at a time. */
  bundleScans: 4,
  /** Bytes of a bundle searched at most. */
  bundleBytes: 8 * 1024 * 1024,
} as const;

const scriptExtensions = new Set(['js', 'mjs', 'cjs']);

/** Godot's .pck starts with "GDPC"; a WebAssembly module with "\0asm". */
const godotPackMagic = Buffer.from('GDPC', 'latin1');
const wasmMagic = Buffer.from([0x00, 0x61, 0x73, 0x6d]);

/** Text each engine writes at the head of its loader or library (banner comments, UMD names, loader names). */
const signatures = {
  unityLoader: ['createUnityInstance', 'UnityLoader'],
  godot: ['var Godot', 'Godot = ', 'const Engine = ', 'var Engine = ', 'GodotConfig'],
  playCanvas: ['PlayCanvas Engine', 'playcanvas.com'],
  phaser: [
    'define("Phaser"',
    "define('Phaser'",
    'exports.Phaser',
    '.Phaser=',
    'Phaser v',
    'Phaser CE',
    'phaser.io',
    'Phaser - http',
  ],
  melonJS: ['melonJS'],
  three: ['Three.js Authors', 'threejs.org/license'],
  // Hexi (kittykatattack/hexi) bundles Pixi, whose UMD head or licence banner starts hexi.js and hexi.min.js: Hexi is
  // named by its loader's file name, its own source's banner (core.js) or a game script creating its instance.
  hexi: ["Welcome to Hexi's source code", '= hexi('],
  // Other bundles export the global PIXI from their UMD head too.
  pixi: ['pixi.js - v', 'PixiJS', '@pixi/', '.PIXI='],
  // A bundler's output (an ES module that imports `three`) has no banner at its head: three.js marks the page with
  // window.__THREE__ wherever the bundler put its code, and esbuild moves the licence comment to the end.
  threeBundle: ['__THREE__', 'Three.js Authors'],
  emscripten: [
    'typeof Module',
    'var Module',
    'Module = Module',
    'moduleArg',
    'The Module object',
    '_scriptDir',
    'emscripten',
  ],
} as const;

interface NamedFile extends EngineInputFile {
  /** The file's name, lower case. */
  name: string;
  /** Its folders, lower case. */
  folders: string[];
  ext: string;
}

/** Answers the engine of a game with these files, or null when none is recognised. */
export async function detectEngine(
  files: readonly EngineInputFile[],
  readHead: ReadHead,
): Promise<GameEngine | null> {
  const named: NamedFile[] = files.map((file) => {
    const lower = file.path.toLowerCase();
    return {
      ...file,
      name: posix.basename(lower),
      folders: posix
        .dirname(lower)
        .split('/')
        .filter((part) => part !== '.'),
      ext: extensionOf(lower),
    };
  });
  const probe = new Probe(named, readHead);
  const has = (test: (file: NamedFile) => boolean) => named.some(test);
  const hasName = (name: string) => has((file) => file.name === name);

  // Unity: its loader (UnityLoader.js up to 2019, Build/<name>.loader.js since 2020), .unityweb data, or
  // Unity 5's gzipped .jsgz/.datagz.
  if (hasName('unityloader.js') || has((file) => ['unityweb', 'jsgz', 'datagz', 'memgz'].includes(file.ext)))
    return 'Unity';
  const loaders = named.filter((file) => file.name.endsWith('.loader.js'));
  if (loaders.some((file) => file.folders.at(-1) === 'build' && hasUnityBuildSibling(named, file)))
    return 'Unity';
  if (await probe.anyHead(loaders, signatures.unityLoader)) return 'Unity';

  // Godot: a .pck that starts with its magic, or a pack next to a Godot engine script.
  const packs = named.filter(
    (file) => file.ext === 'pck' || file.name.endsWith('.pck.gz') || file.name.endsWith('.pck.br'),
  );
  if (
    await probe.anyMagic(
      packs.filter((file) => file.ext === 'pck'),
      godotPackMagic,
    )
  )
    return 'Godot';
  if (packs.length > 0 && (await probe.anyHead(probe.scripts, signatures.godot))) return 'Godot';

  // Defold: dmloader.js with the archive it loads (game.arcd, game.dmanifest, possibly split as game.arcd0).
  if (hasName('dmloader.js') && has(isDefoldArchiveFile)) return 'Defold';

  // Construct 3 (c3runtime.js, or data.json with its scripts/ folder) and Construct 2 (c2runtime.js).
  if (hasName('c3runtime.js') || hasName('c2runtime.js')) return 'Construct';
  if (has((file) => file.name === 'data.json') && has(isConstructScript)) return 'Construct';

  // GDevelop: its runtime (runtimegame.js, gd.js) and the Pixi renderers it ships in pixi-renderers/.
  if (has((file) => file.name === 'runtimegame.js' || file.folders.includes('pixi-renderers')))
    return 'GDevelop';

  // PlayCanvas: an exported project's __start__.js with its settings, or the engine script.
  if (
    hasName('__start__.js') &&
    (hasName('__settings__.js') || hasName('config.json') || hasName('__loading__.js'))
  )
    return 'PlayCanvas';
  if (has((file) => isScript(file) && file.name.startsWith('playcanvas'))) return 'PlayCanvas';
  if (await probe.anyHead(probe.scripts, signatures.playCanvas)) return 'PlayCanvas';

  // The JavaScript libraries, by their file names and then by the banners at the head of the scripts.
  if (has((file) => isScript(file) && file.name.startsWith('phaser'))) return 'Phaser';
  if (has((file) => isScript(file) && file.name.startsWith('melonjs'))) return 'melonJS';
  if (has((file) => isScript(file) && file.name.startsWith('three.'))) return 'three.js';
  // Hexi before Pixi: it carries Pixi (decision 0052).
  if (has((file) => isScript(file) && file.name.startsWith('hexi'))) return 'Hexi';
  if (has((file) => isScript(file) && file.name.startsWith('pixi'))) return 'Pixi';
  if (await probe.anyHead(probe.scripts, signatures.phaser)) return 'Phaser';
  if (await probe.anyHead(probe.scripts, signatures.melonJS)) return 'melonJS';
  if (await probe.anyHead(probe.scripts, signatures.three)) return 'three.js';
  if (await probe.anyHead(probe.scripts, signatures.hexi)) return 'Hexi';
  if (await probe.anyHead(probe.scripts, signatures.pixi)) return 'Pixi';
  if (await probe.anyBundle(signatures.threeBundle)) return 'three.js';

  // emscripten: a WebAssembly module (or asm.js memory, or a packed .data file) and the Module loader.
  const hasModule =
    (await probe.anyMagic(
      named.filter((file) => file.ext === 'wasm'),
      wasmMagic,
    )) ||
    has((file) => file.ext === 'data' || file.name.endsWith('.js.mem') || file.name.endsWith('.html.mem'));
  if (hasModule && (await probe.anyHead(probe.scripts, signatures.emscripten))) return 'emscripten';

  return null;
}

function isScript(file: NamedFile): boolean {
  return scriptExtensions.has(file.ext);
}

/** A Unity build's other files beside Build/<name>.loader.js: <name>.framework.js, .data or .wasm, maybe compressed. */
function hasUnityBuildSibling(files: NamedFile[], loader: NamedFile): boolean {
  const stem = loader.name.slice(0, -'.loader.js'.length);
  const folder = loader.folders.join('/');
  return files.some(
    (file) =>
      file.folders.join('/') === folder &&
      ['.framework.js', '.data', '.wasm'].some((suffix) =>
        [suffix, `${suffix}.gz`, `${suffix}.br`, `${suffix}.unityweb`].some(
          (name) => file.name === stem + name,
        ),
      ),
  );
}

/** A file of a Defold archive: archive/game.arcd, .arci, .dmanifest, .projectc (maybe split: .arcd0), archive_files.json. */
function isDefoldArchiveFile(file: NamedFile): boolean {
  if (file.name === 'archive_files.json') return true;
  return ['arcd', 'arci', 'dmanifest', 'projectc'].some((kind) => file.ext.startsWith(kind));
}

/** A script Construct 3 writes into scripts/ beside data.json. */
function isConstructScript(file: NamedFile): boolean {
  return (
    file.folders.at(-1) === 'scripts' &&
    [
      'supportcheck.js',
      'c3main.js',
      'workermain.js',
      'dispatchworker.js',
      'jobworker.js',
      'offlineclient.js',
      'register-sw.js',
    ].includes(file.name)
  );
}

/** The bounded reads of one detection: each file's head or magic is read once, and only so many in all. */
class Probe {
  /** The scripts whose heads may be read: the shallowest first, then by path, at most engineLimits.scriptHeads. */
  readonly scripts: NamedFile[];
  private readonly heads = new Map<string, Promise<string>>();
  private magicReads = 0;

  constructor(
    private readonly files: NamedFile[],
    private readonly readHead: ReadHead,
  ) {
    this.scripts = files
      .filter((file) => isScript(file) && file.size > 0)
      .sort((a, b) => a.folders.length - b.folders.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .slice(0, engineLimits.scriptHeads);
  }

  /** Whether the head of any of `files` (among the readable scripts) holds one of `texts`. */
  async anyHead(files: NamedFile[], texts: readonly string[]): Promise<boolean> {
    const readable = files.filter((file) => this.scripts.includes(file));
    // A few reads at a time: on S3 each is a request, whose latency would otherwise add up one after another.
    for (let start = 0; start < readable.length; start += engineLimits.parallelReads) {
      const heads = await Promise.all(
        readable.slice(start, start + engineLimits.parallelReads).map((file) => this.head(file)),
      );
      if (heads.some((head) => texts.some((text) => head.includes(text)))) return true;
    }
    return false;
  }

  /**
   * Whether any of the biggest scripts (engineLimits.bundleScans of at least bundleMinBytes, one at a time) holds one
   * of `texts` anywhere in its first bundleBytes: a bundle's libraries sit wherever the bundler put them.
   */
  async anyBundle(texts: readonly string[]): Promise<boolean> {
    const bundles = this.files
      .filter((file) => isScript(file) && file.size >= engineLimits.bundleMinBytes)
      .sort((a, b) => b.size - a.size)
      .slice(0, engineLimits.bundleScans);
    for (const file of bundles) {
      const bytes = await this.read(file, Math.min(file.size, engineLimits.bundleBytes));
      const text = bytes ? bytes.subarray(0, engineLimits.bundleBytes).toString('latin1') : '';
      if (texts.some((found) => text.includes(found))) return true;
    }
    return false;
  }

  /** Whether any of `files` starts with `magic` (at most engineLimits.magicReads reads per detection). */
  async anyMagic(files: NamedFile[], magic: Buffer): Promise<boolean> {
    for (const file of files) {
      if (file.size < magic.length) continue;
      if (this.magicReads >= engineLimits.magicReads) return false;
      this.magicReads += 1;
      const bytes = await this.read(file, magic.length);
      if (bytes && bytes.length >= magic.length && bytes.subarray(0, magic.length).equals(magic)) return true;
    }
    return false;
  }

  private head(file: NamedFile): Promise<string> {
    let head = this.heads.get(file.path);
    if (!head) {
      // latin1 maps every byte to one character: any content, text or binary, becomes a searchable string.
      head = this.read(file, engineLimits.headBytes).then((bytes) =>
        bytes ? bytes.subarray(0, engineLimits.headBytes).toString('latin1') : '',
      );
      this.heads.set(file.path, head);
    }
    return head;
  }

  private async read(file: NamedFile, length: number): Promise<Buffer | undefined> {
    try {
      return await this.readHead(file, Math.min(length, file.size));
    } catch {
      return undefined;
    }
  }
}
