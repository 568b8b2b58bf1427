import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggingOptions, slowRequestMs } from './logging';

/** A Fastify app logging at `level` into `lines`, with routes that answer, fail and take long. */
function appLoggingAt(level: string, lines: { level: number; msg: string; res?: { statusCode: number } }[]) {
  const app = Fastify(
    loggingOptions(level, { destination: { write: (line: string) => void lines.push(JSON.parse(line)) } }),
  );
  app.get('/fine', async () => ({ ok: true }));
  app.get('/missing', async (_request, reply) => reply.code(404).send({ message: 'Not Found' }));
  app.get('/broken', async () => {
    throw new Error('broken on purpose');
  });
  app.get('/slow', async () => {
    // The clock Fastify reads for responseTime moves on while the handler runs (no waiting in the test).
    clock += slowRequestMs + 1;
    return { ok: true };
  });
  return app;
}

let clock = 1_000;

describe('request lines (decision 0053)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('at the default level, only errors and slow requests are written', async () => {
    vi.spyOn(performance, 'now').mockImplementation(() => clock);
    const lines: { level: number; msg: string; res?: { statusCode: number } }[] = [];
    const app = appLoggingAt('info', lines);
    for (const url of ['/fine', '/missing', '/broken', '/slow']) await app.inject({ method: 'GET', url });
    await app.close();
    expect(lines.map((line) => [line.level, line.msg, line.res?.statusCode])).toEqual([
      // Fastify's default error handler's line, then ours.
      [50, 'broken on purpose', 500],
      [50, 'request completed', 500],
      [40, 'slow request', 200],
    ]);
  });

  it('LOG_LEVEL=debug asks for every request, trace for each as it begins too', async () => {
    const debug: { level: number; msg: string }[] = [];
    const debugApp = appLoggingAt('debug', debug);
    await debugApp.inject({ method: 'GET', url: '/fine' });
    await debugApp.inject({ method: 'GET', url: '/missing' });
    await debugApp.close();
    expect(debug.map((line) => [line.level, line.msg])).toEqual([
      [20, 'request completed'],
      [20, 'request completed'],
    ]);

    const trace: { level: number; msg: string }[] = [];
    const traceApp = appLoggingAt('trace', trace);
    await traceApp.inject({ method: 'GET', url: '/fine' });
    await traceApp.close();
    expect(trace.filter((line) => line.msg.includes('request')).map((line) => line.msg)).toEqual([
      'incoming request',
      'request completed',
    ]);
  });
});
