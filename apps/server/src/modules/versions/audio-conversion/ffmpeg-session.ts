import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { limits } from '@reskin/contract';
import { FairQueue } from '../fair-queue';
import { AudioError, audioMessages } from './audio-error';

/**
 * Runs ffmpeg (the WebAssembly build of @ffmpeg/core, decision 0029) in worker threads: one session per file,
 * at most one per core at once (the rest wait their turn, served round-robin by the user they work for, decision
 * 0045, so one artist's long queue does not hold another's one sound), each with a time limit after which its worker is
 * terminated, and a heap that cannot grow past limits.audioConversion.memoryMb. The server's main thread only
 * posts bytes and reads answers, so its other requests are never held by a conversion.
 */

const require = createRequire(import.meta.url);
const coreUrl = pathToFileURL(require.resolve('@ffmpeg/core')).href;
// Beside this file in the sources, beside dist/server.js in the production bundle (scripts/build.mjs copies it).
const workerUrl = new URL('./ffmpeg-worker.mjs', import.meta.url);
const wasmPageBytes = 64 * 1024;
/** The worker's own JavaScript heap (the emscripten glue): small; the file bytes live outside it. */
const workerHeapMb = 64;

export const concurrentSessions = Math.max(1, availableParallelism());

let compiled: Promise<WebAssembly.Module> | undefined;
// The server's TypeScript libraries declare WebAssembly's types but not its global value.
const { compile } = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } }
).WebAssembly;

/** ffmpeg's WebAssembly module, read and compiled once per process, with its memory's maximum set to the limit. */
export function ffmpegModule(): Promise<WebAssembly.Module> {
  compiled ??= readFile(require.resolve('@ffmpeg/core/wasm')).then((bytes) =>
    compile(withMemoryMaximum(bytes, (limits.audioConversion.memoryMb * 1024 * 1024) / wasmPageBytes)),
  );
  return compiled;
}

/**
 * The module with its (one, exported) memory's maximum lowered to `pages`: growing past it fails inside ffmpeg
 * as "Cannot allocate memory", a clean error, instead of taking the process's memory. The maximum is written as a
 * LEB128 number padded to the width of the old one, so no size in the module changes.
 */
export function withMemoryMaximum(bytes: Uint8Array, pages: number): Uint8Array {
  const copy = new Uint8Array(bytes);
  let offset = 8;
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = copy[offset++]!;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  while (offset < copy.length) {
    const id = copy[offset++]!;
    const size = leb();
    const end = offset + size;
    if (id === 5) {
      const count = leb();
      const flags = copy[offset++]!;
      leb(); // the minimum
      if (count !== 1 || !(flags & 1)) break;
      const start = offset;
      const oldMaximum = leb();
      const width = offset - start;
      if (pages >= oldMaximum || pages >= 2 ** (7 * width)) return copy;
      for (let i = 0; i < width; i++) {
        const bits = Math.floor(pages / 2 ** (7 * i)) & 0x7f;
        copy[start + i] = i < width - 1 ? bits | 0x80 : bits;
      }
      return copy;
    }
    offset = end;
  }
  throw new Error('The ffmpeg module has no memory section to limit.');
}

let heapPeakBytes = 0;

/** The largest ffmpeg heap any session of this process has grown to (for the tests and the bench to report). */
export function ffmpegHeapPeakBytes(): number {
  return heapPeakBytes;
}

/** The sessions of this process: at most one per core at once, the waiting ones by owner in turn. */
export const ffmpegSessions = new FairQueue<number>(concurrentSessions);

/** Who a session works for, and how long it may take. */
export interface FfmpegOptions {
  /** The user whose file it is (their turn among the waiting); 0, the server's own work, when none. */
  owner?: number;
  /** Overrides limits.audioConversion.timeLimitSeconds (tests use a tiny one). */
  timeLimitMs?: number;
}

export interface CommandResult {
  ret: number;
  stdout: string[];
  stderr: string[];
  output?: Uint8Array;
  /** The size ffmpeg's heap had grown to (it never shrinks): its peak so far. */
  heapBytes: number;
}

export interface FfmpegSession {
  run(program: 'ffmpeg' | 'ffprobe', args: string[], output?: string): Promise<CommandResult>;
}

interface WorkerAnswer extends CommandResult {
  id?: number;
  ready?: boolean;
  failed?: string;
}

/**
 * Opens a session on one file (its bytes, or a path the worker reads), runs `work` with it and ends the worker.
 * Throws AudioError when the time limit passes (the worker is terminated wherever it is) or the worker fails.
 */
export function withFfmpeg<T>(
  input: Uint8Array | string,
  work: (session: FfmpegSession) => Promise<T>,
  options: FfmpegOptions = {},
): Promise<T> {
  const timeLimitMs = options.timeLimitMs ?? limits.audioConversion.timeLimitSeconds * 1000;
  return ffmpegSessions.run(options.owner ?? 0, async () => {
    const wasmModule = await ffmpegModule();
    const worker = new Worker(workerUrl, {
      workerData: { coreUrl, wasmModule, input },
      resourceLimits: { maxOldGenerationSizeMb: workerHeapMb },
      stdout: true,
      stderr: true,
    });
    const pending = new Map<number, (answer: CommandResult) => void>();
    let nextId = 0;
    let fail: (error: Error) => void = () => {};
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {});
    let isReady = false;
    let markReady: () => void = () => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve)).then(() => {
      isReady = true;
    });

    worker.on('message', (answer: WorkerAnswer) => {
      if (answer.ready) markReady();
      else if (answer.failed) fail(new Error(answer.failed));
      else if (answer.id !== undefined) {
        heapPeakBytes = Math.max(heapPeakBytes, answer.heapBytes);
        pending.get(answer.id)?.(answer);
      }
    });
    worker.on('error', (error: Error & { code?: string }) =>
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new AudioError(audioMessages.tooMuchMemory) : error),
    );
    worker.on('exit', (code) => fail(new Error(`The ffmpeg worker stopped (exit ${code}).`)));
    const timer = setTimeout(() => {
      fail(new AudioError(audioMessages.tooSlow));
      void worker.terminate();
    }, timeLimitMs);

    const session: FfmpegSession = {
      run: (program, args, output) =>
        Promise.race([
          failed,
          new Promise<CommandResult>((resolve) => {
            const id = nextId++;
            pending.set(id, resolve);
            worker.postMessage({ id, program, args, output });
          }),
        ]),
    };
    try {
      await Promise.race([failed, ready]);
      return await Promise.race([failed, work(session)]);
    } catch (error) {
      // A failure inside ffmpeg's module once it runs (an abort, a trap) is a file it could not read; one before
      // (the module missing) is the server's own fault and stays an error.
      if (error instanceof AudioError || !isReady) throw error;
      throw new AudioError(audioMessages.unreadable, error);
    } finally {
      clearTimeout(timer);
      worker.removeAllListeners('exit');
      await worker.terminate();
    }
  });
}
