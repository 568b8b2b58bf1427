// The baseline of the API bench: a bare Fastify server in a process of its own that answers each route with
// the bytes the app answered for it, from memory. `node bare-server.mjs <routes.json>`, where the file holds
// [{ method, url, body (base64) }]; prints {"port":...} once it listens.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const routes = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const app = Fastify({ logger: false });
for (const route of routes) {
  const bytes = Buffer.from(route.body, 'base64');
  app.route({
    method: route.method,
    url: route.url,
    handler: async (_request, reply) => reply.type('application/json').send(bytes),
  });
}
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
