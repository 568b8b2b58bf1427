#!/usr/bin/env node
// `npm start`: builds what is missing or stale (scripts/build.mjs), then runs the compiled server in this
// same process, so a SIGTERM or SIGINT sent to it (npm forwards them: the start script `exec`s node)
// reaches the server, which drains and exits (apps/server/src/server.ts).
import { buildIfStale } from './build.mjs';

try {
  await buildIfStale();
} catch (error) {
  console.error(`Cannot start: ${error.message}`);
  process.exit(1);
}
await import('../apps/server/dist/server.js');
