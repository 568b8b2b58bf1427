import { constants, createBrotliDecompress, createGunzip } from 'node:zlib';
import type { PrecompressedMode } from '@reskin/contract';
import { extensionOf } from '../../lib/game-paths';
import { WasmFormatError, readWasmImports } from './wasm-imports';

/**
 * What `auto` decides for a game's play settings (decision 0022), from the game's own files: their
 * names, and the first bytes of the few files that tell (a Unity framework's compression, a WebAssembly module's
 * imports, an emscripten loader's text). Anything that cannot be read or is not what its name says is left out
 * of the decision, which then falls back to the defaults (stored, not isolated), and the reason says so.
 */
export interface PlayDetection {
  precompressedDecided: PrecompressedMode;
  precompressedReason: string;
  isolatedDecided: boolean;
  isolatedReason: string;
}

/** A game file as detection sees it. */
export interface DetectedFile {
  path: string;
  storageKey: string;
  size: number;
}

/** The first `bytes` bytes of a stored object (fewer when it is shorter), or undefined when it is missing. */
export type ReadPrefix = (file: DetectedFile, bytes: number) => Promise<Buffer | undefined>;

/** What detection reads at most: per file, of the unpacked bytes, and how many files of each kind. */
export const detectionLimits = {
  /** A module's import section follows its type section: within the first MiB of every build we tried. */
  wasmBytes: 1024 * 1024,
  /** An emscripten loader is a few hundred KB; PThread appears in its first part. */
  loaderBytes: 4 * 1024 * 1024,
  /** Enough of a compressed file to see its format. */
  compressedBytes: 64 * 1024,
  filesPerKind: 16,
} as const;

type Packing = 'gzip' | 'br';

/** The name without folders. */
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '');
const lower = (text: string) => text.toLowerCase();

/** The name of a path without a final .gz or .br, and which packing that suffix names. */
function unpackedName(path: string): { name: string; packing?: Packing } {
  const ext = extensionOf(path);
  if (ext === 'gz') return { name: path.slice(0, -3), packing: 'gzip' };
  if (ext === 'br') return { name: path.slice(0, -3), packing: 'br' };
  return { name: path };
}

/** Whether bytes start with gzip's signature (1f 8b, deflate). */
const gzipSignature = (bytes: Buffer) =>
  bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08;

/**
 * Unpacks the start of a gzip or brotli stream (a prefix of a file: no error for its missing end), at most
 * `maxOut` bytes. Throws when the bytes are no such stream.
 */
export function unpackPrefix(packing: Packing, input: Buffer, maxOut: number): Promise<Buffer> {
  if (packing === 'gzip' && !gzipSignature(input)) return Promise.reject(new Error('no gzip signature'));
  const stream =
    packing === 'gzip'
      ? createGunzip({ finishFlush: constants.Z_SYNC_FLUSH })
      : createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).subarray(0, maxOut));
    };
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= maxOut) {
        finish();
        stream.destroy();
      }
    });
    stream.on('error', (error) => finish(error));
    stream.on('end', () => finish());
    stream.end(input);
  });
}

/** Whether the bytes start a stream of that packing (gzip: its signature and a clean start; brotli: a clean start). */
async function isPacked(packing: Packing, bytes: Buffer): Promise<boolean> {
  try {
    return (await unpackPrefix(packing, bytes, 1024)).length > 0;
  } catch {
    return false;
  }
}

/** The Unity loaders, by name: `Build/<name>.loader.js` (Unity 2020 and later) or `UnityLoader.js` (5.6 to 2019). */
function unityLoader(path: string): boolean {
  const name = baseName(path);
  if (name === 'UnityLoader.js') return true;
  const folder = folderOf(path);
  return (
    lower(name).endsWith('.loader.js') &&
    lower(folder).endsWith('build/') &&
    name.length > '.loader.js'.length
  );
}

/** A Unity framework or data file that Unity compressed: `*.framework.js.gz`, `*.framework.js.br`, `*.unityweb`. */
function unityPacked(path: string): Packing[] | undefined {
  const name = lower(baseName(path));
  if (name.endsWith('.framework.js.gz')) return ['gzip'];
  if (name.endsWith('.framework.js.br')) return ['br'];
  if (name.endsWith('.unityweb')) return ['gzip', 'br'];
  return undefined;
}

/** Lists names in a sentence: "a, b and 3 more". */
function names(paths: string[], max = 3): string {
  const shown = paths.slice(0, max);
  const more = paths.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** The reason, with the files left out of the decision (a few of them: the reason stays a sentence or two). */
function withProblems(reason: string, problems: string[]): string {
  return problems.length ? `${reason} Not counted: ${names(problems, 3)}.` : reason;
}

async function read(readPrefix: ReadPrefix, file: DetectedFile, bytes: number): Promise<Buffer | undefined> {
  if (file.size === 0) return Buffer.alloc(0);
  try {
    return await readPrefix(file, Math.min(bytes, file.size));
  } catch {
    return undefined;
  }
}

/** How the game's `.gz`/`.br` files should be sent, and why. */
async function detectPrecompressed(
  files: DetectedFile[],
  readPrefix: ReadPrefix,
): Promise<Pick<PlayDetection, 'precompressedDecided' | 'precompressedReason'>> {
  const loader = files.find((file) => unityLoader(file.path));
  if (loader) {
    return {
      precompressedDecided: 'encoded',
      precompressedReason: `${loader.path} is a Unity loader: Unity's compressed files are sent with Content-Encoding, for the browser to unpack.`,
    };
  }
  const problems: string[] = [];
  for (const file of files.filter((f) => unityPacked(f.path)).slice(0, detectionLimits.filesPerKind)) {
    const packings = unityPacked(file.path)!;
    const bytes = await read(readPrefix, file, detectionLimits.compressedBytes);
    if (!bytes) {
      problems.push(`${file.path} could not be read`);
      continue;
    }
    for (const packing of packings) {
      if (await isPacked(packing, bytes)) {
        return {
          precompressedDecided: 'encoded',
          precompressedReason: `${file.path} is a Unity file compressed with ${packing === 'gzip' ? 'gzip' : 'brotli'}: the game's compressed files are sent with Content-Encoding, for the browser to unpack.`,
        };
      }
    }
    problems.push(
      `${file.path} is not ${packings.map((p) => (p === 'gzip' ? 'gzip' : 'brotli')).join(' or ')} data`,
    );
  }
  const packed = files.filter((file) => unpackedName(file.path).packing);
  const base = packed.length
    ? `No Unity loader among the game's files: its compressed files (${names(packed.map((f) => f.path))}) are sent as stored, for the game to unpack itself.`
    : "No Unity loader among the game's files, and no .gz or .br files: sent as stored (the default).";
  return { precompressedDecided: 'stored', precompressedReason: withProblems(base, problems) };
}

/** The WebAssembly modules of a game: `.wasm`, and `.wasm.gz`/`.wasm.br` (unpacked as far as needed). */
function wasmModule(path: string): { packing?: Packing } | undefined {
  const { name, packing } = unpackedName(path);
  return extensionOf(name) === 'wasm' ? { packing } : undefined;
}

/** Whether the game needs SharedArrayBuffer (cross-origin isolation), and why. */
async function detectIsolated(
  files: DetectedFile[],
  readPrefix: ReadPrefix,
): Promise<Pick<PlayDetection, 'isolatedDecided' | 'isolatedReason'>> {
  const problems: string[] = [];
  const modules = files.filter((file) => wasmModule(file.path)).slice(0, detectionLimits.filesPerKind);
  for (const file of modules) {
    const { packing } = wasmModule(file.path)!;
    const raw = await read(readPrefix, file, detectionLimits.wasmBytes);
    if (!raw) {
      problems.push(`${file.path} could not be read`);
      continue;
    }
    let bytes = raw;
    if (packing) {
      try {
        bytes = await unpackPrefix(packing, raw, detectionLimits.wasmBytes);
      } catch {
        problems.push(`${file.path} is not ${packing === 'gzip' ? 'gzip' : 'brotli'} data`);
        continue;
      }
    }
    try {
      const imports = readWasmImports(bytes);
      if (imports.sharedMemoryImport) {
        return {
          isolatedDecided: true,
          isolatedReason: `${file.path} imports a shared memory (${imports.sharedMemoryName}): it runs threads, which need SharedArrayBuffer and so cross-origin isolation.`,
        };
      }
    } catch (error) {
      if (!(error instanceof WasmFormatError)) throw error;
      problems.push(
        `${file.path} is not a readable WebAssembly module (${error.message.replace(/\.$/, '')})`,
      );
    }
  }

  // An emscripten loader: the .js of the same name beside a module (index.js beside index.wasm).
  const byPath = new Map(files.map((file) => [file.path, file]));
  const loaders = modules
    .map((file) => byPath.get(`${unpackedName(file.path).name.slice(0, -'.wasm'.length)}.js`))
    .filter((file): file is DetectedFile => file !== undefined);
  for (const loader of loaders) {
    const bytes = await read(readPrefix, loader, detectionLimits.loaderBytes);
    if (!bytes) {
      problems.push(`${loader.path} could not be read`);
      continue;
    }
    const text = bytes.toString('latin1');
    const mention = ['PThread', 'SharedArrayBuffer'].find((word) => text.includes(word));
    if (mention) {
      return {
        isolatedDecided: true,
        isolatedReason: `${loader.path}, the emscripten loader of its WebAssembly module, uses ${mention}: a threaded build, which needs cross-origin isolation.`,
      };
    }
  }

  const base = modules.length
    ? `No WebAssembly module imports a shared memory (${names(modules.map((f) => f.path))}), and no emscripten loader uses PThread or SharedArrayBuffer: not isolated (the default).`
    : 'The game has no WebAssembly module: not isolated (the default).';
  return { isolatedDecided: false, isolatedReason: withProblems(base, problems) };
}

/**
 * Decides a game's `auto` play settings from its files (`readPrefix` reads their first bytes from storage). Never
 * throws for what the files hold: unreadable or mislabelled files are named in the reasons and left out.
 */
export async function detectPlaySettings(
  files: DetectedFile[],
  readPrefix: ReadPrefix,
): Promise<PlayDetection> {
  return { ...(await detectPrecompressed(files, readPrefix)), ...(await detectIsolated(files, readPrefix)) };
}
