// npm run bench: speed and memory targets, measured on this machine (never asserted in timed tests).
import pg from 'pg';
import { benchApi, type ApiBenchResult } from './api.bench';
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


const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgresUp = await new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 })
  .connect()
  .then(async (client) => (await client.end(), true))
  .catch(() => false);
const apiResults: ApiBenchResult[] = [...(await benchApi('sqlite'))];
if (postgresUp) apiResults.push(...(await benchApi('postgres', databaseUrl)));
else console.log(`\n(PostgreSQL at ${databaseUrl} is unreachable: its API benchmark is skipped)`);
console.log('\nAPI under 50 concurrent connections (1000 users, 200 games, 6000 versions), against a bare Fastify route');
console.log('answering the same bytes from memory in the same run:');
for (const r of apiResults) {
  console.log(
    `  ${r.database.padEnd(8)} ${r.call.padEnd(28)} ${fixed(r.app.requestsPerSecond, 0).padStart(6)} req/s, p99 ${fixed(r.app.p99Ms, 0).padStart(4)} ms` +
      `   bare ${fixed(r.bare.requestsPerSecond, 0).padStart(6)} req/s, p99 ${fixed(r.bare.p99Ms, 0).padStart(3)} ms` +
      `   ratio ${fixed(r.rpsRatio)} (req/s), ${fixed(r.p99Ratio, 1)}x (p99)`,
  );
}

if (!upload.underTarget) process.exitCode = 1;
