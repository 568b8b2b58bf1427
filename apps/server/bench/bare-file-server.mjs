// The baseline of the play bench: a bare Node file server in a process of its own, node:http and
// fs.createReadStream with the play origin's headers and none of its checks. `node bare-file-server.mjs <folder>`
// serves `/<key>` from the folder (DATA_DIR/files: the same stored files); prints {"port":...} once it listens.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';

const root = process.argv[2];
const types = { js: 'text/javascript; charset=utf-8', png: 'image/png' };
const headers = {
  'Content-Security-Policy': 'sandbox allow-scripts allow-same-origin allow-pointer-lock',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': 'private, no-cache',
  'Accept-Ranges': 'bytes',
};

const server = createServer(async (request, response) => {
  // The bench asks for stored keys only (no ".." handling: not a server for anything else).
  const key = decodeURIComponent(new URL(request.url, 'http://x').pathname.slice(1));
  const path = join(root, key);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, {
    ...headers,
    'Content-Type': types[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    ETag: `"${info.size}-${info.mtimeMs}"`,
  });
  createReadStream(path).pipe(response);
});
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
