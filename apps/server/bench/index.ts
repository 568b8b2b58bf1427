// npm run bench: speed and memory targets, measured on this machine (never asserted in timed tests).
import { benchGeneration } from './generation.bench';
import { benchUpload } from './upload.bench';

const fixed = (n: number, digits = 2) => n.toFixed(digits);

console.log('Reskin Studio benchmarks\n');

const generation = await benchGeneration(200);
console.log('Generation of a game of 200 images of mixed sizes (png, jpg, webp, gif; 16 to 1280 px a side)');
console.log(`  through the app:   ${fixed(generation.seconds)} s, ${fixed(generation.imagesPerSecond, 1)} images/s`);
console.log(`  bare sharp:        ${fixed(generation.bareSeconds)} s, ${fixed(generation.bareImagesPerSecond, 1)} images/s`);
console.log(`  ratio app / bare:  ${fixed(generation.ratioToBare)}\n`);

const upload = await benchUpload();
console.log(`Upload of ${upload.files} files (${fixed(upload.megabytes, 0)} MB) in one request to the real server`);
console.log(`  time:              ${fixed(upload.seconds)} s`);
console.log(`  server peak RSS:   ${fixed(upload.serverPeakRssMb, 0)} MB (target < 300 MB: ${upload.underTarget ? 'met' : 'MISSED'})`);

if (!upload.underTarget) process.exitCode = 1;
