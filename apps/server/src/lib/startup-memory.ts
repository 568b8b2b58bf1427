import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How long after it listens the server collects start-up's garbage (a collection right at start-up gives nothing back). */
export const startupGarbageDelayMs = 10_000;

/**
 * One full garbage collection a moment after the server has started (idle memory). Start-up
 * (migrations, the demo seed's sample game, route compilation) leaves tens of MB of garbage that V8 keeps while the
 * server is idle, since nothing allocates enough to trigger a collection. Node exposes `gc` only with --expose-gc,
 * which `npm start` and a service manager do not pass: the flag is set for the moment a new context is made, which
 * then holds the function.
 */
export function collectStartupGarbage(): void {
  let gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  gc();
}
