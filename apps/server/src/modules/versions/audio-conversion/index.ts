import { extensionOfName, limits } from '@reskin/contract';
import { AudioError, SoundTooLongError, audioMessages } from './audio-error';
import { type CommandResult, type FfmpegOptions, type FfmpegSession, withFfmpeg } from './ffmpeg-session';

/**
 * Sound probing, loudness and conversion (decision 0029), with ffmpeg's WebAssembly build in worker
 * threads: never on the server's main thread, at most one per core at once, each with a time limit and a memory
 * bound (limits.audioConversion). Every function takes the file's bytes or a path to it, and throws AudioError
 * (a 422 with a message for the artist) for anything about the file: not audio, corrupted, a format the server
 * does not convert, too slow, too large.
 *
 *   const original = await probeAudio(originalBytes);            // { codec, container, sampleRate, channels, durationSeconds }
 *   const incoming = await probeAudio(uploadedBytes);
 *   if (needsConversion(incoming, original)) {
 *     const converted = await convertAudio(uploadedBytes, {
 *       toPathLike: originalPath, codec: original.codec, sampleRate: original.sampleRate, channels: original.channels,
 *       matchLoudnessOf: await loudness(originalBytes),          // optional
 *     });
 *   }
 */

export { AudioError, SoundTooLongError, audioMessages } from './audio-error';
export type { FfmpegOptions } from './ffmpeg-session';

/** The container of a sound, named like a file extension. */
export type AudioContainer = 'wav' | 'mp3' | 'ogg' | 'opus' | 'm4a' | 'aac' | 'flac' | 'webm';

export interface AudioProbe {
  /** ffmpeg's codec name: 'pcm_s16le', 'mp3', 'vorbis', 'opus', 'aac', 'alac', 'flac', ... */
  codec: string;
  container: AudioContainer;
  sampleRate: number;
  channels: number;
  /** 0 when the file does not tell (rare: a raw AAC stream may not). */
  durationSeconds: number;
}

/** The file's bytes, or the path of a file on this machine (read in the worker, not on the main thread). */
export type AudioInput = Uint8Array | string;

export interface ConvertAudioOptions extends FfmpegOptions {
  /** The original's path (or name): its extension decides the container (and the codec, unless `codec` says). */
  toPathLike: string;
  /** The original's codec from probeAudio: for an .ogg that holds Opus, an .m4a that holds ALAC, a 24-bit .wav. */
  codec?: string;
  sampleRate: number;
  channels: number;
  /** Integrated loudness (LUFS) to bring the result to, usually loudness() of the original. */
  matchLoudnessOf?: number;
  /** The largest result accepted (the per-file limit); a larger one is refused. */
  maxOutputBytes?: number;
}

/** The container a path's extension asks for, else undefined (contract audioFormat.extensions plus .webm). */
export function audioContainerOfPath(path: string): AudioContainer | undefined {
  const ext = extensionOfName(path);
  if (ext === 'oga') return 'ogg';
  if (ext === 'weba') return 'webm';
  return (['wav', 'mp3', 'ogg', 'opus', 'm4a', 'aac', 'flac', 'webm'] as const).find(
    (container) => container === ext,
  );
}

/** Whether an incoming sound differs from the original in what a conversion sets: container, codec, rate, channels. */
export function needsConversion(incoming: AudioProbe, original: AudioProbe): boolean {
  return (
    incoming.container !== original.container ||
    incoming.codec !== original.codec ||
    incoming.sampleRate !== original.sampleRate ||
    incoming.channels !== original.channels
  );
}

/**
 * How long a sound lasts by its header (ffprobe only, nothing decoded): 0 when it does not tell. Throws
 * SoundTooLongError past limits.audioConversion.maxDurationSeconds, AudioError when it is no sound ffmpeg reads.
 */
export function soundDuration(input: AudioInput, options: FfmpegOptions = {}): Promise<number> {
  return withFfmpeg(input, async (session) => (await probeIn(session)).durationSeconds, options);
}

/**
 * Container, codec, rate and channels of a sound; the whole file is decoded once, so a corrupted one is refused.
 * A sound longer than limits.audioConversion.maxDurationSeconds is refused before it is decoded (as by every
 * function here).
 */
export function probeAudio(input: AudioInput, options: FfmpegOptions = {}): Promise<AudioProbe> {
  return withFfmpeg(
    input,
    async (session) => {
      const probe = await probeIn(session);
      const decoded = await session.run('ffmpeg', [
        '-hide_banner',
        '-v',
        'error',
        '-xerror',
        '-i',
        '/input',
        '-map',
        '0:a:0',
        '-f',
        'null',
        '-',
      ]);
      if (decoded.ret !== 0) throw failureOf(decoded);
      return probe;
    },
    options,
  );
}

/**
 * Integrated loudness of a sound in LUFS (EBU R128, ffmpeg's ebur128 filter). Silence measures -70 LUFS, the
 * floor of the measurement's gate.
 */
export function loudness(input: AudioInput, options: FfmpegOptions = {}): Promise<number> {
  return withFfmpeg(
    input,
    async (session) => {
      await probeIn(session);
      return loudnessIn(session);
    },
    options,
  );
}

/**
 * The sound in the original's container and codec (by `toPathLike`'s extension and `codec`), sample rate and
 * channel count, optionally brought to the loudness `matchLoudnessOf` by a gain (measured on the input first).
 */
export async function convertAudio(input: AudioInput, options: ConvertAudioOptions): Promise<Buffer> {
  const maxOutputBytes = options.maxOutputBytes ?? limits.defaultMaxFileSizeMb * 1024 * 1024;
  conversionCommand(options); // refuses an original it cannot write before a worker starts
  return withFfmpeg(
    input,
    async (session) => {
      await probeIn(session);
      let gainDb: number | undefined;
      if (options.matchLoudnessOf !== undefined) {
        const measured = await loudnessIn(session);
        // Silence stays silence: no gain can bring it anywhere.
        if (measured > silenceLufs) gainDb = options.matchLoudnessOf - measured;
      }
      const { args, output } = conversionCommand({ ...options, maxOutputBytes }, gainDb);
      const result = await session.run('ffmpeg', args, output);
      if (result.ret !== 0 || !result.output) throw failureOf(result);
      if (result.output.length > maxOutputBytes) throw new AudioError(audioMessages.tooLarge);
      return Buffer.from(result.output.buffer, result.output.byteOffset, result.output.length);
    },
    { owner: options.owner, timeLimitMs: options.timeLimitMs },
  );
}

/**
 * The ffmpeg arguments of a conversion of /input to the original's format, written to `output` in ffmpeg's
 * in-memory file system (exported for the bench, which runs the same command as a separate program).
 */
export function conversionCommand(
  options: ConvertAudioOptions,
  gainDb?: number,
): { args: string[]; output: string } {
  const target = targetOf(options);
  const filters = [
    ...(gainDb === undefined ? [] : [`volume=${gainDb.toFixed(2)}dB`]),
    `aresample=${target.sampleRate}`,
  ];
  const output = `/output.${target.extension}`;
  const maxOutputBytes = options.maxOutputBytes ?? limits.defaultMaxFileSizeMb * 1024 * 1024;
  const args = [
    ...['-hide_banner', '-v', 'error', '-xerror', '-i', '/input', '-map', '0:a:0', '-map_metadata', '-1'],
    ...['-af', filters.join(','), '-ar', String(target.sampleRate), '-ac', String(options.channels)],
    ...[
      '-c:a',
      target.encoder,
      ...target.encoderArgs,
      '-fs',
      String(maxOutputBytes + 1),
      '-f',
      target.muxer,
      output,
    ],
  ];
  return { args, output };
}

const silenceLufs = -70;

function failureOf(result: CommandResult): AudioError {
  return new AudioError(
    result.stderr.some((line) => line.includes('Cannot allocate memory'))
      ? audioMessages.tooMuchMemory
      : audioMessages.unreadable,
  );
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string };
  streams?: {
    codec_type?: string;
    codec_name?: string;
    sample_rate?: string;
    channels?: number;
    duration?: string;
  }[];
}

async function probeIn(session: FfmpegSession): Promise<AudioProbe> {
  const result = await session.run('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    '/input',
  ]);
  // ffprobe of @ffmpeg/core answers -1 whatever happened: what it printed tells.
  let json: ProbeJson;
  try {
    json = JSON.parse(result.stdout.join('\n')) as ProbeJson;
  } catch {
    throw new AudioError(audioMessages.unreadable);
  }
  const stream = json.streams?.find((candidate) => candidate.codec_type === 'audio');
  const sampleRate = Number(stream?.sample_rate);
  if (!stream?.codec_name || !(sampleRate > 0) || !(stream.channels! > 0))
    throw new AudioError(audioMessages.unreadable);
  const container = containerOfFormat(json.format?.format_name ?? '', stream.codec_name);
  if (!container) throw new AudioError(audioMessages.unsupported);
  const duration = Number(json.format?.duration ?? stream.duration);
  if (Number.isFinite(duration) && duration > limits.audioConversion.maxDurationSeconds)
    throw new SoundTooLongError(duration);
  return {
    codec: stream.codec_name,
    container,
    sampleRate,
    channels: stream.channels!,
    durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : 0,
  };
}

function containerOfFormat(formatName: string, codec: string): AudioContainer | undefined {
  if (formatName === 'ogg') return codec === 'opus' ? 'opus' : 'ogg';
  if (formatName.startsWith('mov,mp4,m4a')) return 'm4a';
  if (formatName === 'matroska,webm') return 'webm';
  return (['wav', 'mp3', 'aac', 'flac'] as const).find((container) => container === formatName);
}

async function loudnessIn(session: FfmpegSession): Promise<number> {
  const result = await session.run('ffmpeg', [
    ...['-hide_banner', '-nostats', '-v', 'info', '-xerror', '-i', '/input', '-map', '0:a:0'],
    ...['-af', 'ebur128=framelog=verbose', '-f', 'null', '-'],
  ]);
  if (result.ret !== 0) throw failureOf(result);
  // Frame lines go to the verbose level, not shown; the filter's summary ends the log: "Integrated loudness:" then "I: -23.0 LUFS".
  const summary = result.stderr.slice(
    result.stderr.findLastIndex((line) => line.includes('Integrated loudness')),
  );
  const match = summary.map((line) => /^\s*I:\s+(-?[\d.]+|-inf)\s+LUFS/.exec(line)).find((found) => found);
  if (!match) throw new AudioError(audioMessages.unreadable);
  return match[1] === '-inf' ? silenceLufs : Math.max(silenceLufs, Number(match[1]));
}

interface Target {
  extension: string;
  muxer: string;
  encoder: string;
  encoderArgs: string[];
  sampleRate: number;
}

const pcmCodecs = new Set([
  'pcm_u8',
  'pcm_s16le',
  'pcm_s24le',
  'pcm_s32le',
  'pcm_f32le',
  'pcm_f64le',
  'pcm_alaw',
  'pcm_mulaw',
]);
const opusRates = [48000, 24000, 16000, 12000, 8000];
const vorbis = { encoder: 'libvorbis', encoderArgs: ['-q:a', '5'] };
// 10 ms frames: the libopus of @ffmpeg/core 0.12.10 overflows its small stack on 20 ms stereo frames (a trap,
// "memory access out of bounds"; ffmpeg.wasm issues 591 and 867, fixed upstream but not yet released).
const opus = { encoder: 'libopus', encoderArgs: ['-b:a', '128k', '-frame_duration', '10'] };
const aac = { encoder: 'aac', encoderArgs: ['-b:a', '192k'] };

/** What to write for an original at `toPathLike` holding `codec`: its container and codec, at good quality. */
function targetOf({ toPathLike, codec, sampleRate }: ConvertAudioOptions): Target {
  const container = audioContainerOfPath(toPathLike);
  const encoding = (() => {
    switch (container) {
      case 'wav':
        return {
          muxer: 'wav',
          encoder: codec && pcmCodecs.has(codec) ? codec : 'pcm_s16le',
          encoderArgs: [],
        };
      case 'mp3':
        return { muxer: 'mp3', encoder: 'libmp3lame', encoderArgs: ['-q:a', '2'] };
      case 'ogg':
        return {
          muxer: 'ogg',
          ...(codec === 'opus' ? opus : codec === 'flac' ? { encoder: 'flac', encoderArgs: [] } : vorbis),
        };
      case 'opus':
        return { muxer: 'opus', ...opus };
      case 'm4a':
        return { muxer: 'ipod', ...(codec === 'alac' ? { encoder: 'alac', encoderArgs: [] } : aac) };
      case 'aac':
        return { muxer: 'adts', ...aac };
      case 'flac':
        return { muxer: 'flac', encoder: 'flac', encoderArgs: [] };
      case 'webm':
        return { muxer: 'webm', ...(codec === 'vorbis' ? vorbis : opus) };
      default:
        throw new AudioError(audioMessages.unsupportedTarget);
    }
  })();
  // Opus codes only these rates; an Opus original always reports 48 kHz.
  const rate = encoding.encoder === 'libopus' && !opusRates.includes(sampleRate) ? 48000 : sampleRate;
  return { extension: extensionOfName(toPathLike), ...encoding, sampleRate: rate };
}
