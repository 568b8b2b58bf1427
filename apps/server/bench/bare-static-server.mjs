// The baseline of the play frame bench (play-frame.bench.ts), standing in for nginx (not installed here): a bare
// Node static server, node:http, that serves a folder under /build/ as nginx with `gzip on` and gzip_static would
// (each compressible file gzipped once, level 6, then kept; ETag; the play origin's headers, `no-cache` as it
// sends), and at / a page that puts the game in the same sandboxed frame as the app's play screens the moment its
// Play button is clicked. `node bare-static-server.mjs <folder>` prints {"port":...} once it listens.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = process.argv[2];
const types = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  png: 'image/png',
  wasm: 'application/wasm',
};
const compressible = new Set(['html', 'css', 'js', 'wasm', 'data']);
const headers = {
  'Content-Security-Policy': 'sandbox allow-scripts allow-same-origin allow-pointer-lock',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'cross-origin',
  'Access-Control-Allow-Origin': '*',
  'Cache-Control': 'private, no-cache',
};

// The page of the "app": the same frame attributes as apps/web's PlayFrame, the frame's URL in the query string.
const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare static server</title></head>
<body>
<button id="play">Play</button> <button id="back">Back</button>
<div id="slot"></div>
<script>
  const frameUrl = new URLSearchParams(location.search).get('frame');
  document.getElementById('play').addEventListener('click', () => {
    const frame = document.createElement('iframe');
    frame.title = 'Bare: game';
    frame.src = frameUrl;
    frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-pointer-lock');
    frame.allow = 'autoplay; fullscreen; gamepad';
    frame.referrerPolicy = 'no-referrer';
    frame.width = 1010;
    frame.height = 650;
    document.getElementById('slot').replaceChildren(frame);
  });
  document.getElementById('back').addEventListener('click', () => document.getElementById('slot').replaceChildren());
</script>
</body></html>
`;

/** Files read (and gzipped) once: path -> { raw, gzip, etag }. */
const kept = new Map();

async function fileOf(path) {
  let file = kept.get(path);
  if (file === undefined) {
    const raw = await readFile(join(root, path)).catch(() => undefined);
    if (raw === undefined) return undefined;
    const ext = path.slice(path.lastIndexOf('.') + 1);
    const gzip = compressible.has(ext) ? gzipSync(raw, { level: 6 }) : undefined;
    file = { raw, gzip, ext, etag: `"${raw.length.toString(16)}-${kept.size}"` };
    kept.set(path, file);
  }
  return file;
}

const server = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://x');
  if (url.pathname === '/') {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(page);
    return;
  }
  const path = normalize(decodeURIComponent(url.pathname.slice('/build/'.length)));
  const file = url.pathname.startsWith('/build/') && !path.startsWith('..') ? await fileOf(path) : undefined;
  if (!file) {
    response.writeHead(404).end();
    return;
  }
  const gzip = file.gzip !== undefined && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
  const etag = gzip ? `W/${file.etag}` : file.etag;
  const common = {
    ...headers,
    'Content-Type': types[file.ext] ?? 'application/octet-stream',
    ETag: etag,
    ...(file.gzip !== undefined && { Vary: 'Accept-Encoding' }),
  };
  if (request.headers['if-none-match'] === etag) {
    response.writeHead(304, common).end();
    return;
  }
  const body = gzip ? file.gzip : file.raw;
  response.writeHead(200, {
    ...common,
    ...(gzip && { 'Content-Encoding': 'gzip' }),
    'Content-Length': body.length,
  });
  response.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
