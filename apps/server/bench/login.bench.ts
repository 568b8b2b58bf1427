import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';

export interface LoginTimingResult {
  attempts: number;
  knownMedianMs: number;
  unknownMedianMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A wrong password for a known email against one for an unknown email (no account enumeration by
 * timing), on SQLite, through app.inject. Each attempt uses another account or email, so the per-account
 * delay after repeated failures never applies.
 */
export async function benchLoginTiming(attempts = 20): Promise<LoginTimingResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-login-'));
  const built = await buildApp({
    ...loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false', LOG_LEVEL: 'error' }),
    authRateLimitMax: 10_000,
  });
  const timeLogin = async (email: string) => {
    const started = performance.now();
    const response = await built.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email, password: 'wrong-password-1' },
    });
    if (response.statusCode !== 401)
      throw new Error(`login answered ${response.statusCode}: ${response.body}`);
    return performance.now() - started;
  };
  try {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < attempts; i++) {
      const email = `timing${i}@example.com`;
      const signup = await built.app.inject({
        method: 'POST',
        url: '/api/user/signup',
        payload: {
          username: `timing${i}`,
          email,
          password: 'bench-pass-1',
          firstName: 'Bench',
          lastName: 'Mark',
          phone: '0123456789',
          dataProtectionRegulationVersion: 1,
        },
      });
      if (signup.statusCode !== 201) throw new Error(`signup answered ${signup.statusCode}: ${signup.body}`);
      // Interleaved, so drift on a shared machine affects both alike.
      known.push(await timeLogin(email));
      unknown.push(await timeLogin(`nobody${i}@example.com`));
    }
    return { attempts, knownMedianMs: median(known), unknownMedianMs: median(unknown) };
  } finally {
    await built.app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
