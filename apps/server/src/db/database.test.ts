import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isDatabaseUnavailable, loadPostgresDriver, retryWhileUnavailable } from './database';

function socketError(code: string, syscall?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${syscall ?? ''} ${code}`.trim()), {
    code,
    ...(syscall ? { syscall } : {}),
  });
}

function postgresError(code: string): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError('from the server', 0, 'error'), { code });
}

describe('isDatabaseUnavailable', () => {
  // The server loads pg only for PostgreSQL; its errors are told apart once it is loaded.
  beforeAll(async () => void (await loadPostgresDriver()));

  it.each([
    ['a refused connection', socketError('ECONNREFUSED', 'connect')],
    ['a reset connection', socketError('ECONNRESET', 'read')],
    ['a connect that timed out', socketError('ETIMEDOUT', 'connect')],
    ['a host name that does not resolve', socketError('ENOTFOUND', 'getaddrinfo')],
    [
      'every address of a host refused',
      new AggregateError([socketError('ECONNREFUSED', 'connect'), socketError('ECONNREFUSED', 'connect')]),
    ],
    ['a connection exception (class 08)', postgresError('08006')],
    ['an administrator shutdown', postgresError('57P01')],
    ['a crash shutdown', postgresError('57P02')],
    ['a server that cannot accept connections yet', postgresError('57P03')],
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect that took too long', new Error('Connection terminated due to connection timeout')],
    ['no free connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'a connection that broke earlier',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
  ])('is true for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['an HTTP client that hung up (no system call)', socketError('ECONNRESET')],
    ['a unique violation', postgresError('23505')],
    ['a cancelled statement', postgresError('57014')],
    ['any other error', new Error('boom')],
    ['something that is not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('retryWhileUnavailable', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits 0.5 s, doubling up to 5 s, and throws the last error when the time is up', async () => {
    vi.useFakeTimers();
    const delays: number[] = [];
    const refused = socketError('ECONNREFUSED', 'connect');
    const work = vi.fn(() => Promise.reject(refused));
    const outcome = retryWhileUnavailable(work, 20_000, (_error, delayMs) => delays.push(delayMs)).catch(
      (error: unknown) => error,
    );
    await vi.runAllTimersAsync();
    expect(await outcome).toBe(refused);
    expect(delays).toEqual([500, 1000, 2000, 4000, 5000, 5000, 2500]);
    expect(work).toHaveBeenCalledTimes(delays.length + 1);
  });

  it('answers as soon as the work succeeds', async () => {
    vi.useFakeTimers();
    const work = vi.fn().mockRejectedValueOnce(postgresError('57P03')).mockResolvedValue('up');
    const outcome = retryWhileUnavailable(work, 20_000, () => {});
    await vi.runAllTimersAsync();
    expect(await outcome).toBe('up');
    expect(work).toHaveBeenCalledTimes(2);
  });

  it('does not retry other errors', async () => {
    const denied = postgresError('28P01');
    const work = vi.fn(() => Promise.reject(denied));
    await expect(retryWhileUnavailable(work, 20_000, () => {})).rejects.toBe(denied);
    expect(work).toHaveBeenCalledTimes(1);
  });
});
