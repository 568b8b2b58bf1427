import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { limits, validationMessages } from '@reskin/contract';
import {
  AudioError,
  SoundTooLongError,
  audioMessages,
  convertAudio,
  loudness,
  needsConversion,
  probeAudio,
  soundDuration,
  type AudioContainer,
  type AudioProbe,
} from '../src/modules/versions/audio-conversion';
import {
  concurrentSessions,
  ffmpegHeapPeakBytes,
  withFfmpeg,
  withMemoryMaximum,
} from '../src/modules/versions/audio-conversion/ffmpeg-session';
import { silentWav } from './support/sound-samples';

/**
 * Sound conversion (decision 0029): the real WebAssembly ffmpeg in worker threads, on sounds it makes
 * itself (tones of a known level) and on the sample game's own sounds. No database.
 */

const sampleSfx = fileURLToPath(new URL('../sample-game/star-catcher/assets/sfx/', import.meta.url));

type ToneFormat = 'wav' | 'mp3' | 'ogg' | 'opus' | 'm4a' | 'flac' | 'webm';
const encoders: Record<ToneFormat, string[]> = {
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  mp3: ['-c:a', 'libmp3lame', '-q:a', '4', '-f', 'mp3'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '3', '-f', 'ogg'],
  // 10 ms frames, as the module writes Opus (the WebAssembly libopus traps on 20 ms stereo frames).
  opus: ['-c:a', 'libopus', '-b:a', '64k', '-frame_duration', '10', '-f', 'opus'],
  m4a: ['-c:a', 'aac', '-b:a', '128k', '-f', 'ipod'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  webm: ['-c:a', 'libopus', '-b:a', '64k', '-frame_duration', '10', '-f', 'webm'],
};

/** A sine tone made by the same ffmpeg: `amplitude` of full scale in every channel. */
async function tone(
  format: ToneFormat,
  { seconds = 3, rate = 44100, channels = 2, amplitude = 0.25, frequency = 440 } = {},
): Promise<Buffer> {
  const wave = Array.from({ length: channels }, () => `${amplitude}*sin(2*PI*${frequency}*t)`).join('|');
  const output = `/tone.${format}`;
  return withFfmpeg(new Uint8Array(0), async (session) => {
    const result = await session.run(
      'ffmpeg',
      [
        '-hide_banner',
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        `aevalsrc=${wave}:s=${format === 'opus' || format === 'webm' ? 48000 : rate}:d=${seconds}`,
        ...encoders[format],
        output,
      ],
      output,
    );
    expect(result.ret, result.stderr.join('\n')).toBe(0);
    return Buffer.from(result.output!);
  });
}

/** A PCM WAV of `bytes` or a little more, written directly (a sine at a quarter of full scale, 48 kHz stereo). */
function bigWav(bytes: number): Buffer {
  const rate = 48000;
  const frames = Math.ceil(bytes / 4);
  const wav = Buffer.alloc(44 + frames * 4);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + frames * 4, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 4, 28);
  wav.writeUInt16LE(4, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(frames * 4, 40);
  for (let i = 0; i < frames; i++) {
    const sample = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
    wav.writeInt16LE(sample, 44 + i * 4);
    wav.writeInt16LE(sample, 46 + i * 4);
  }
  return wav;
}

async function audioErrorOf(work: Promise<unknown>): Promise<AudioError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AudioError);
  return error as AudioError;
}

describe('sound conversion', () => {
  it('probes each input format: container, codec, sample rate, channels, duration', async () => {
    const expected: Record<ToneFormat, Pick<AudioProbe, 'container' | 'codec'>> = {
      wav: { container: 'wav', codec: 'pcm_s16le' },
      mp3: { container: 'mp3', codec: 'mp3' },
      ogg: { container: 'ogg', codec: 'vorbis' },
      opus: { container: 'opus', codec: 'opus' },
      m4a: { container: 'm4a', codec: 'aac' },
      flac: { container: 'flac', codec: 'flac' },
      webm: { container: 'webm', codec: 'opus' },
    };
    for (const format of Object.keys(expected) as ToneFormat[]) {
      const probe = await probeAudio(await tone(format, { seconds: 2, channels: 1, rate: 22050 }));
      expect(probe, format).toMatchObject({ ...expected[format], channels: 1 });
      expect(probe.sampleRate, format).toBe(format === 'opus' || format === 'webm' ? 48000 : 22050);
      expect(Math.abs(probe.durationSeconds - 2), format).toBeLessThan(0.1);
    }
    const music = await probeAudio(`${sampleSfx}music.ogg`);
    expect(music).toMatchObject({ container: 'ogg', codec: 'vorbis' });
  });

  // The originals' formats of the sample game and the held-out cases, each at its own rate and channel count.
  const originals: {
    path: string;
    container: AudioContainer;
    codec: string;
    sampleRate: number;
    channels: number;
  }[] = [
    { path: 'sfx/hit.mp3', container: 'mp3', codec: 'mp3', sampleRate: 44100, channels: 2 },
    { path: 'music/theme.ogg', container: 'ogg', codec: 'vorbis', sampleRate: 22050, channels: 1 },
    { path: 'sfx/boom.wav', container: 'wav', codec: 'pcm_s16le', sampleRate: 48000, channels: 2 },
    { path: 'voice/line.m4a', container: 'm4a', codec: 'aac', sampleRate: 44100, channels: 1 },
  ];
  const inputs: ToneFormat[] = ['wav', 'mp3', 'ogg', 'opus', 'm4a', 'flac', 'webm'];

  for (const input of inputs) {
    it(`converts ${input} to each original format (MP3, OGG, WAV, M4A): codec, container, rate, channels and duration`, async () => {
      const sound = await tone(input, { seconds: 3, rate: 32000, channels: 2 });
      for (const original of originals) {
        const converted = await convertAudio(sound, {
          toPathLike: original.path,
          sampleRate: original.sampleRate,
          channels: original.channels,
        });
        const probe = await probeAudio(converted);
        const { container, codec, sampleRate, channels } = original;
        expect(probe, `${input} -> ${original.path}`).toMatchObject({
          container,
          codec,
          sampleRate,
          channels,
        });
        expect(
          Math.abs(probe.durationSeconds - 3) / 3,
          `${input} -> ${original.path}: ${probe.durationSeconds} s`,
        ).toBeLessThan(0.02);
        expect(needsConversion(probe, { ...original, durationSeconds: 3 })).toBe(false);
      }
    }, 120_000);
  }

  it("keeps an original's codec where its extension allows several: Opus in .ogg, 24-bit WAV", async () => {
    const sound = await tone('mp3', { seconds: 2 });
    const opusInOgg = await probeAudio(
      await convertAudio(sound, { toPathLike: 'a.ogg', codec: 'opus', sampleRate: 48000, channels: 2 }),
    );
    expect(opusInOgg).toMatchObject({ container: 'opus', codec: 'opus' });
    const wav24 = await probeAudio(
      await convertAudio(sound, { toPathLike: 'a.wav', codec: 'pcm_s24le', sampleRate: 44100, channels: 1 }),
    );
    expect(wav24).toMatchObject({ container: 'wav', codec: 'pcm_s24le', channels: 1 });
  });

  it("converts the sample game's own sounds: the music (OGG) to a WAV original and a WAV effect to an OGG one", async () => {
    const music = readFileSync(`${sampleSfx}music.ogg`);
    const boom = readFileSync(`${sampleSfx}boom.wav`);
    const [musicProbe, boomProbe] = [await probeAudio(music), await probeAudio(boom)];
    const asWav = await probeAudio(
      await convertAudio(music, {
        toPathLike: 'sfx/boom.wav',
        sampleRate: boomProbe.sampleRate,
        channels: boomProbe.channels,
      }),
    );
    expect(asWav).toMatchObject({
      container: 'wav',
      sampleRate: boomProbe.sampleRate,
      channels: boomProbe.channels,
    });
    expect(
      Math.abs(asWav.durationSeconds - musicProbe.durationSeconds) / musicProbe.durationSeconds,
    ).toBeLessThan(0.02);
    const asOgg = await probeAudio(
      await convertAudio(boom, {
        toPathLike: 'sfx/music.ogg',
        sampleRate: musicProbe.sampleRate,
        channels: musicProbe.channels,
      }),
    );
    expect(asOgg).toMatchObject({
      container: 'ogg',
      codec: 'vorbis',
      sampleRate: musicProbe.sampleRate,
      channels: musicProbe.channels,
    });
  });

  it('measures the integrated loudness (EBU R128) of a tone of known level', async () => {
    // EBU Tech 3341: a 1 kHz sine at -20 dBFS in both channels reads -20 LUFS.
    const level = await loudness(
      await tone('wav', { seconds: 5, rate: 48000, channels: 2, amplitude: 0.1, frequency: 1000 }),
    );
    expect(level).toBeCloseTo(-20, 0);
    const quieter = await loudness(
      await tone('flac', { seconds: 5, rate: 48000, channels: 2, amplitude: 0.01, frequency: 1000 }),
    );
    expect(quieter).toBeCloseTo(-40, 0);
  });

  it("matches the original's loudness: the result lies within 1 LU of the target, louder or quieter", async () => {
    const quiet = await tone('wav', { seconds: 4, amplitude: 0.02, frequency: 600 });
    const loud = await tone('mp3', { seconds: 4, amplitude: 0.5, frequency: 600 });
    const louder = await convertAudio(quiet, {
      toPathLike: 'a.ogg',
      sampleRate: 44100,
      channels: 2,
      matchLoudnessOf: -16,
    });
    expect(Math.abs((await loudness(louder)) + 16)).toBeLessThan(1);
    const softer = await convertAudio(loud, {
      toPathLike: 'a.mp3',
      sampleRate: 44100,
      channels: 1,
      matchLoudnessOf: -30,
    });
    expect(Math.abs((await loudness(softer)) + 30)).toBeLessThan(1);
    // Without the option the level stays the input's.
    const kept = await convertAudio(quiet, { toPathLike: 'a.m4a', sampleRate: 44100, channels: 2 });
    expect(Math.abs((await loudness(kept)) - (await loudness(quiet)))).toBeLessThan(1);
  });

  it('refuses corrupted audio and files that only claim to be audio with a clear AudioError, never a crash', async () => {
    const ogg = await tone('ogg', { seconds: 3 });
    // The first page (the header) kept, the rest replaced by noise: the decoder finds no valid packet.
    const scrambled = Buffer.from(ogg);
    for (let i = 200; i < scrambled.length; i++) scrambled[i] = (i * 7919) & 0xff;
    const cutHeader = (await tone('m4a', { seconds: 3 })).subarray(0, 300);
    const text = Buffer.from('Not a sound at all, only words in a file named boom.wav.\n'.repeat(20));
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const fakeWav = Buffer.concat([
      Buffer.from('RIFF\u0010\u0000\u0000\u0000WAVEfmt '),
      Buffer.alloc(16, 0xff),
    ]);
    for (const [name, bytes] of Object.entries({
      scrambled,
      cutHeader,
      text,
      png,
      fakeWav,
      empty: Buffer.alloc(0),
    })) {
      const error = await audioErrorOf(probeAudio(bytes));
      expect(error.message, name).toBe(audioMessages.unreadable);
      expect(error.statusCode, name).toBe(422);
      const conversion = await audioErrorOf(
        convertAudio(bytes, { toPathLike: 'a.mp3', sampleRate: 44100, channels: 2 }),
      );
      expect(conversion.message, name).toBe(audioMessages.unreadable);
      await audioErrorOf(loudness(bytes));
    }
    // The server goes on converting after all of them.
    expect((await probeAudio(ogg)).codec).toBe('vorbis');
  });

  it('refuses an original it cannot write, and a result over the per-file limit', async () => {
    const sound = await tone('wav', { seconds: 3 });
    const target = await audioErrorOf(
      convertAudio(sound, { toPathLike: 'a.xm', sampleRate: 44100, channels: 2 }),
    );
    expect(target.message).toBe(audioMessages.unsupportedTarget);
    const large = await audioErrorOf(
      convertAudio(sound, { toPathLike: 'a.wav', sampleRate: 44100, channels: 2, maxOutputBytes: 100_000 }),
    );
    expect(large.message).toBe(audioMessages.tooLarge);
  });

  it(`refuses a sound longer than ${limits.audioConversion.maxDurationSeconds / 60} minutes by its header, before decoding it, with a message naming the limit`, async () => {
    const limit = limits.audioConversion.maxDurationSeconds;
    const long = silentWav(limit + 60);
    expect(long.length).toBeLessThan(200 * 1024);
    for (const work of [
      () => probeAudio(long),
      () => loudness(long),
      () => soundDuration(long),
      () => convertAudio(long, { toPathLike: 'a.ogg', sampleRate: 44100, channels: 1 }),
    ]) {
      const error = await audioErrorOf(work());
      expect(error).toBeInstanceOf(SoundTooLongError);
      expect(error.message).toBe(validationMessages.soundTooLong(limit + 60));
    }
    expect(validationMessages.soundTooLong(limit + 60)).toBe(
      'This sound lasts 16 min: a sound may last at most 15 min.',
    );
    expect(validationMessages.soundTooLong(14 * 3600 + 5)).toBe(
      'This sound lasts 14 h 05 s: a sound may last at most 15 min.',
    );
    // At the limit it is read as ever.
    expect((await probeAudio(silentWav(limit))).durationSeconds).toBeCloseTo(limit, 0);
  });

  it("serves users in turn: user B's one short sound is done before user A's queue of long ones drains", async () => {
    const long = await tone('wav', { seconds: 30, rate: 48000 });
    const short = await tone('wav', { seconds: 1 });
    const finished: string[] = [];
    const record = (name: string) => (probe: AudioProbe) => {
      finished.push(name);
      return probe;
    };
    // A queues three times as many sounds as run at once, then B queues one.
    const forA = Array.from({ length: 3 * concurrentSessions }, (_, i) =>
      probeAudio(long, { owner: 1 }).then(record(`A${i}`)),
    );
    const forB = probeAudio(short, { owner: 2 }).then(record('B'));
    await Promise.all([...forA, forB]);
    // In arrival order B would start last, after every A; in turn it starts when the second place frees, so at
    // least the A sounds that start after it (2 x concurrency - 1, each longer) end after it.
    const afterB = finished.length - 1 - finished.indexOf('B');
    expect(afterB, finished.join(' ')).toBeGreaterThanOrEqual(2 * concurrentSessions - 1);
  });

  it('stops a conversion that runs past its time limit, and the next one still runs', async () => {
    const sound = await tone('wav', { seconds: 20 });
    const error = await audioErrorOf(
      convertAudio(sound, { toPathLike: 'a.mp3', sampleRate: 44100, channels: 2, timeLimitMs: 50 }),
    );
    expect(error.message).toBe(audioMessages.tooSlow);
    expect((await probeAudio(sound)).durationSeconds).toBeCloseTo(20, 1);
  });

  it("bounds ffmpeg's heap: a module's memory maximum lowered in place cannot be grown past", async () => {
    // A module exporting a memory of 1 page, at most 1000 (a two-byte number, as the limit is written in place).
    const module = Uint8Array.from([
      0, 97, 115, 109, 1, 0, 0, 0, 5, 5, 1, 1, 1, 0xe8, 0x07, 7, 5, 1, 1, 0x6d, 2, 0,
    ]);
    const limited = withMemoryMaximum(module, 10);
    expect(limited.length).toBe(module.length);
    const wasm = (
      globalThis as unknown as {
        WebAssembly: {
          instantiate(
            bytes: Uint8Array,
          ): Promise<{ instance: { exports: { m: { grow(pages: number): number } } } }>;
        };
      }
    ).WebAssembly;
    const { instance } = await wasm.instantiate(limited);
    expect(instance.exports.m.grow(9)).toBe(1);
    expect(() => instance.exports.m.grow(1)).toThrow(RangeError);
    const unlimited = (await wasm.instantiate(module)).instance;
    expect(unlimited.exports.m.grow(100)).toBe(1);
  });

  it('converts a 50 MB WAV within the memory bound, and the main thread stays free meanwhile', async () => {
    const wav = bigWav(50 * 1024 * 1024);
    let peakRss = process.memoryUsage().rss;
    const startRss = peakRss;
    let ticks = 0;
    const sampler = setInterval(() => {
      ticks++;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    try {
      const ogg = await convertAudio(wav, { toPathLike: 'music/theme.ogg', sampleRate: 44100, channels: 2 });
      const probe = await probeAudio(ogg);
      expect(probe).toMatchObject({ container: 'ogg', sampleRate: 44100, channels: 2 });
      expect(Math.abs(probe.durationSeconds - wav.length / 192_000) / probe.durationSeconds).toBeLessThan(
        0.02,
      );
    } finally {
      clearInterval(sampler);
    }
    const heapPeak = ffmpegHeapPeakBytes();
    console.info(
      `50 MB WAV to OGG: ffmpeg heap peak ${(heapPeak / 2 ** 20).toFixed(0)} MiB (limit ${limits.audioConversion.memoryMb}), ` +
        `process RSS ${(startRss / 2 ** 20).toFixed(0)} -> peak ${(peakRss / 2 ** 20).toFixed(0)} MiB, ${ticks} timer ticks on the main thread`,
    );
    expect(heapPeak).toBeLessThanOrEqual(limits.audioConversion.memoryMb * 2 ** 20);
    // The worker holds the input and the result beside its heap; the process grows by no more than those.
    expect(peakRss - startRss).toBeLessThan((limits.audioConversion.memoryMb + 3 * 50 + 100) * 2 ** 20);
    // The conversion ran off the main thread: its timers kept firing throughout.
    expect(ticks).toBeGreaterThan(5);
  }, 180_000);
});
