// The WebAssembly ffmpeg of @ffmpeg/core as a command, for the audio bench's baseline (decision 0029): what running
// "the same ffmpeg from a shell" means for a build that has no executable. A new process each run, which reads and
// compiles the module, loads the input as /input, runs the arguments, and writes the output file:
//   node bench/ffmpeg-cli.mjs <input file> <output file> <ffmpeg arguments naming /input and the output path>
// The output path is the last argument (as in the module's conversion commands).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [inputFile, outputFile, ...args] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const coreUrl = pathToFileURL(require.resolve('@ffmpeg/core')).href;
globalThis.self = { location: { href: coreUrl } };
const { default: createCore } = await import(coreUrl);
const core = await createCore({ wasmBinary: readFileSync(require.resolve('@ffmpeg/core/wasm')) });
const errors = [];
core.setLogger(({ type, message }) => type === 'stderr' && errors.push(message));
core.FS.writeFile('/input', readFileSync(inputFile));
const ret = core.exec(...args);
if (ret !== 0) {
  console.error(errors.join('\n'));
  process.exit(1);
}
writeFileSync(outputFile, core.FS.readFile(args.at(-1)));
