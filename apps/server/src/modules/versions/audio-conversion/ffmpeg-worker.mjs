// One ffmpeg session in a worker thread (decision 0029): the WebAssembly build of ffmpeg from @ffmpeg/core, run
// off the server's main thread. Plain JavaScript, so the same file runs from the sources (tsx, vitest) and beside
// the production bundle (scripts/build.mjs copies it into apps/server/dist).
//
// workerData: { coreUrl, wasmModule, input } where input is the file's bytes (a Uint8Array) or a path to read.
// The worker writes the input as /input in ffmpeg's in-memory file system and posts { ready: true }; then each
// message { id, program: 'ffmpeg' | 'ffprobe', args, output? } runs one command and answers
// { id, ret, stdout, stderr, output?, heapBytes }: the exit code, the logged lines, the bytes of `output` (a path
// inside the in-memory file system) when asked, and the size of ffmpeg's heap. The owner ends the worker when done.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

// The emscripten glue of @ffmpeg/core is built for a browser's worker: it reads its own address from
// self.location. The compiled module comes from the owner, so nothing is fetched or compiled here.
globalThis.self = { location: { href: workerData.coreUrl } };
const { default: createCore } = await import(workerData.coreUrl);
const core = await createCore({
  instantiateWasm(imports, receive) {
    WebAssembly.instantiate(workerData.wasmModule, imports).then(
      (instance) => receive(instance, workerData.wasmModule),
      (error) => parentPort.postMessage({ failed: String(error) }),
    );
    return {};
  },
});

let stdout = [];
let stderr = [];
core.setLogger(({ type, message }) => (type === 'stdout' ? stdout : stderr).push(message));

const input = typeof workerData.input === 'string' ? readFileSync(workerData.input) : workerData.input;
core.FS.writeFile('/input', input);
parentPort.postMessage({ ready: true });

parentPort.on('message', ({ id, program, args, output }) => {
  stdout = [];
  stderr = [];
  core.reset();
  const ret = program === 'ffprobe' ? core.ffprobe(...args) : core.exec(...args);
  let bytes;
  if (output && ret === 0) {
    try {
      bytes = core.FS.readFile(output);
      core.FS.unlink(output);
    } catch {
      bytes = undefined;
    }
  }
  const answer = { id, ret, stdout, stderr, output: bytes, heapBytes: core.HEAPU8.length };
  parentPort.postMessage(answer, bytes ? [bytes.buffer] : []);
});
