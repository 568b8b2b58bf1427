// Makes the sample game's art and sounds (all drawn and synthesised here; nothing copied).
// Run from the repo root: node apps/server/sample-game/make-assets.mjs   (needs sox for the OGG file; the MP3 is
// encoded with the ffmpeg WebAssembly build of @ffmpeg/core, the one the server converts sounds with)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';

const root = new URL('./star-catcher/', import.meta.url).pathname;
const img = (name) => join(root, 'assets/img', name);
const sfx = (name) => join(root, 'assets/sfx', name);

const svg = (width, height, body) =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${body}</svg>`);

function starPath(cx, cy, outer, inner, rotation = 0) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = rotation + (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(' ');
}

// Night sky with hills (JPEG: the one photo-like image).
await sharp(
  svg(640, 480, `
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0b1026"/><stop offset="0.7" stop-color="#2b3f8c"/><stop offset="1" stop-color="#6a5fa8"/>
    </linearGradient></defs>
    <rect width="640" height="480" fill="url(#sky)"/>
    ${Array.from({ length: 60 }, (_, i) => `<circle cx="${(i * 97) % 640}" cy="${(i * 53) % 300}" r="${1 + (i % 3) * 0.6}" fill="#fff" opacity="0.${5 + (i % 5)}"/>`).join('')}
    <circle cx="540" cy="80" r="36" fill="#f6f1c7"/>
    <path d="M0 400 Q 160 330 320 390 T 640 370 V480 H0 Z" fill="#1d5c3a"/>
    <path d="M0 430 Q 200 380 380 430 T 640 420 V480 H0 Z" fill="#2e7d4f"/>`),
)
  .jpeg({ quality: 85 })
  .toFile(img('background.jpg'));

// The basket the player moves.
await sharp(
  svg(96, 48, `
    <path d="M4 8 H92 L80 46 H16 Z" fill="#b5651d" stroke="#6b3a10" stroke-width="3"/>
    <path d="M10 20 H86 M14 32 H82" stroke="#e0a060" stroke-width="3"/>
    <path d="M30 8 V46 M48 8 V46 M66 8 V46" stroke="#8a4b16" stroke-width="2"/>`),
)
  .png()
  .toFile(img('basket.png'));

// A sprite sheet: four frames of a spinning star, 32x32 each.
await sharp(
  svg(128, 32, [0, 1, 2, 3]
    .map((f) => `<polygon points="${starPath(16 + f * 32, 16, 14, 6, (f * Math.PI) / 10)}" fill="${['#ffd84a', '#ffe27a', '#fff0a8', '#ffe27a'][f]}" stroke="#c98f00" stroke-width="1.5"/>`)
    .join('')),
)
  .png()
  .toFile(img('star-sheet.png'));

await sharp(
  svg(32, 32, `
    <circle cx="15" cy="18" r="12" fill="#222" stroke="#555" stroke-width="2"/>
    <path d="M22 8 Q 26 2 30 4" stroke="#a0522d" stroke-width="2" fill="none"/>
    <circle cx="30" cy="4" r="2.5" fill="#ff6a00"/><circle cx="11" cy="14" r="3" fill="#666"/>`),
)
  .png()
  .toFile(img('bomb.png'));

await sharp(
  svg(120, 60, `
    <g fill="#ffffff" opacity="0.85"><circle cx="30" cy="38" r="18"/><circle cx="55" cy="26" r="22"/><circle cx="84" cy="34" r="20"/><rect x="30" y="36" width="60" height="20" rx="10"/></g>`),
)
  .png()
  .toFile(img('cloud.png'));

await sharp(
  svg(24, 24, `<path d="M12 21 L3 12 A5 5 0 0 1 12 5 A5 5 0 0 1 21 12 Z" fill="#e8364f" stroke="#8f1026" stroke-width="1.5"/>`),
)
  .png()
  .toFile(img('heart.png'));

// The splash: the title card (also the game's card image in My Games), 360x240.
await sharp(
  svg(360, 240, `
    <rect width="360" height="240" rx="18" fill="#1b2a5c"/>
    <polygon points="${starPath(180, 90, 52, 22)}" fill="#ffd84a" stroke="#c98f00" stroke-width="3"/>
    <text x="180" y="190" text-anchor="middle" font-family="sans-serif" font-weight="bold" font-size="40" fill="#ffffff">Star Catcher</text>`),
)
  .png()
  .toFile(img('splash.png'));

// Sounds: 16-bit mono PCM WAV, synthesised.
function wav(seconds, sample) {
  const rate = 22050;
  const count = Math.floor(seconds * rate);
  const data = Buffer.alloc(44 + count * 2);
  data.write('RIFF', 0);
  data.writeUInt32LE(36 + count * 2, 4);
  data.write('WAVEfmt ', 8);
  data.writeUInt32LE(16, 16);
  data.writeUInt16LE(1, 20);
  data.writeUInt16LE(1, 22);
  data.writeUInt32LE(rate, 24);
  data.writeUInt32LE(rate * 2, 28);
  data.writeUInt16LE(2, 32);
  data.writeUInt16LE(16, 34);
  data.write('data', 36);
  data.writeUInt32LE(count * 2, 40);
  for (let i = 0; i < count; i++) {
    const value = Math.max(-1, Math.min(1, sample(i / rate, i / count)));
    data.writeInt16LE(Math.round(value * 32767 * 0.8), 44 + i * 2);
  }
  return data;
}

// A rising two-note chime.
writeFileSync(sfx('catch.wav'), wav(0.25, (t, p) => Math.sin(2 * Math.PI * (p < 0.5 ? 880 : 1320) * t) * (1 - p)));
// A noisy thump.
let seed = 7;
const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
writeFileSync(sfx('boom.wav'), wav(0.5, (t, p) => (noise() * 0.7 + Math.sin(2 * Math.PI * 60 * t) * 0.5) * Math.pow(1 - p, 2)));
/** Runs one ffmpeg command of @ffmpeg/core on `input` (bytes) and answers the bytes of `output`. */
async function ffmpeg(input, args, output) {
  const require = createRequire(import.meta.url);
  const coreUrl = pathToFileURL(require.resolve('@ffmpeg/core')).href;
  // The emscripten glue reads its own address from self.location (it is built for a browser's worker).
  globalThis.self = { location: { href: coreUrl } };
  const { default: createCore } = await import(coreUrl);
  const wasm = await WebAssembly.compile(readFileSync(require.resolve('@ffmpeg/core/wasm')));
  const core = await createCore({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasm, imports).then((instance) => receive(instance, wasm));
      return {};
    },
  });
  core.FS.writeFile('/input', input);
  if (core.exec('-hide_banner', '-v', 'error', '-i', '/input', ...args, output) !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed`);
  return core.FS.readFile(output);
}

// A short looping tune, in two formats as real web games ship a sound (decision 0050): Ogg Vorbis (sox) and MP3
// (ffmpeg's LAME); the engine loads the first one the browser can play (Chromium: the OGG).
const notes = [523, 659, 784, 659, 587, 698, 880, 698];
const music = wav(4, (t) => {
  const n = Math.floor(t * 2) % notes.length;
  const local = (t * 2) % 1;
  return (Math.sin(2 * Math.PI * notes[n] * t) * 0.4 + Math.sin(2 * Math.PI * (notes[n] / 2) * t) * 0.2) * Math.min(1, local * 20) * (1 - local * 0.6);
});
const temporary = join(root, 'assets/sfx/music.tmp.wav');
writeFileSync(temporary, music);
execFileSync('sox', [temporary, '-C', '3', sfx('music.ogg')]);
writeFileSync(sfx('music.mp3'), await ffmpeg(music, ['-c:a', 'libmp3lame', '-b:a', '48k'], '/music.mp3'));
execFileSync('rm', [temporary]);
console.log('sample game assets written to', root);
