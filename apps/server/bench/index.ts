// npm run bench: speed and memory targets, measured on this machine (never asserted in timed tests).
// `npm run bench -- startup api` runs the named benchmarks only (generation, upload, api, play, login, startup, atlases, fit, audio, versionZip, zipUpload, workbench, review, myGames).
import { browserRuns } from './runs-browser';
import { mediaRuns } from './runs-media';
import { serverRuns } from './runs-server';

/** Every benchmark by name, in the order a run without names takes them. */
const benchmarks: Record<string, () => Promise<void>> = { ...serverRuns, ...mediaRuns, ...browserRuns };

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in benchmarks));
if (unknown.length > 0) {
  console.error(
    `Unknown benchmark ${unknown.join(', ')}: choose from ${Object.keys(benchmarks).join(', ')} (none: all).`,
  );
  process.exit(2);
}
console.log('Reskin Studio benchmarks\n');
for (const [name, run] of Object.entries(benchmarks)) {
  if (chosen.length === 0 || chosen.includes(name)) await run();
}
