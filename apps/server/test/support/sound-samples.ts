/**
 * A silent WAV that really lasts `seconds`, yet stays small: 8-bit mono at 200 samples a second (15 minutes are
 * 180 KB). ffmpeg reads and decodes it like any WAV, so a duration limit can be tested on a real long sound.
 */
export function silentWav(seconds: number, rate = 200): Buffer {
  const samples = Math.ceil(seconds * rate);
  const wav = Buffer.alloc(44 + samples, 128); // 128 is silence in unsigned 8-bit PCM
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate, 28); // bytes a second
  wav.writeUInt16LE(1, 32); // bytes a frame
  wav.writeUInt16LE(8, 34); // bits a sample
  wav.write('data', 36);
  wav.writeUInt32LE(samples, 40);
  return wav;
}
