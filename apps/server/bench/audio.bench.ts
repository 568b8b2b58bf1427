import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  convertAudio,
  conversionCommand,
  type ConvertAudioOptions,
} from '../src/modules/versions/audio-conversion';
import { withFfmpeg } from '../src/modules/versions/audio-conversion/ffmpeg-session';
import { median } from './api.bench';

const run = promisify(execFile);
const cli = new URL('./ffmpeg-cli.mjs', import.meta.url).pathname;

/** One minute of 44.1 kHz stereo 16-bit WAV (10 MB): a tone over pink noise, so the encoders work as on music. */
async function minuteOfWav(): Promise<Buffer> {
  return withFfmpeg(new Uint8Array(0), async (session) => {
    const result = await session.run(
      'ffmpeg',
      [
        ...[
          '-hide_banner',
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=44100:duration=60',
        ],
        ...['-f', 'lavfi', '-i', 'anoisesrc=color=pink:sample_rate=44100:duration=60:amplitude=0.1'],
        ...[
          '-filter_complex',
          '[0][1]amerge=inputs=2',
          '-ac',
          '2',
          '-c:a',
          'pcm_s16le',
          '-f',
          'wav',
          '/minute.wav',
        ],
      ],
      '/minute.wav',
    );
    if (result.ret !== 0 || !result.output)
      throw new Error(`making the WAV failed: ${result.stderr.join('\n')}`);
    return Buffer.from(result.output);
  });
}

async function timed(work: () => Promise<unknown>): Promise<{ ms: number }> {
  const started = performance.now();
  await work();
  return { ms: performance.now() - started };
}

export interface AudioBenchRow {
  target: 'ogg' | 'mp3';
  /** convertAudio of the WAV's bytes (a worker, the module compiled once per process). */
  appMs: number;
  /** The same ffmpeg and the same arguments as a separate program started with execFile (bench/ffmpeg-cli.mjs). */
  shellMs: number;
  /** shellMs / appMs: 1 = as fast, above 1 = the module is faster. */
  ratio: number;
  outputKb: number;
}

/**
 * Converting one minute of WAV to OGG Vorbis and to MP3 through the module, against the same ffmpeg run from a
 * shell with the same arguments; alternating rounds, medians.
 */
export async function benchAudio(
  rounds = 5,
): Promise<{ rounds: number; wavMb: number; rows: AudioBenchRow[] }> {
  const wav = await minuteOfWav();
  const dir = mkdtempSync(join(tmpdir(), 'reskin-audio-bench-'));
  try {
    const wavFile = join(dir, 'minute.wav');
    writeFileSync(wavFile, wav);
    const rows: AudioBenchRow[] = [];
    for (const target of ['ogg', 'mp3'] as const) {
      const options: ConvertAudioOptions = {
        toPathLike: `music/theme.${target}`,
        sampleRate: 44100,
        channels: 2,
      };
      const { args } = conversionCommand(options);
      const outFile = join(dir, `out.${target}`);
      await convertAudio(wav, options); // warm-up: the module's first compile
      const app: number[] = [];
      const shell: number[] = [];
      let outputBytes = 0;
      for (let round = 0; round < rounds; round++) {
        app.push(
          (
            await timed(async () => {
              outputBytes = (await convertAudio(wav, options)).length;
            })
          ).ms,
        );
        shell.push((await timed(() => run(process.execPath, [cli, wavFile, outFile, ...args]))).ms);
      }
      if (Math.abs(statSync(outFile).size - outputBytes) > outputBytes * 0.01)
        throw new Error('the shell run wrote another file');
      rows.push({
        target,
        appMs: median(app),
        shellMs: median(shell),
        ratio: median(shell) / median(app),
        outputKb: outputBytes / 1024,
      });
    }
    return { rounds, wavMb: wav.length / 2 ** 20, rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
