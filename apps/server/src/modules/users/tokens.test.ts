import { afterEach, describe, expect, it, vi } from 'vitest';
import { RoleType } from '@reskin/contract';
import { HmacJwt } from '../../lib/jwt';
import { SessionTokens } from './tokens';

const secret = 'unit-secret-0123456789abcdef0123456789';
const user = { id: 7, username: 'ann', email: 'ann@example.com', roleTypeId: RoleType.User };

describe('SessionTokens (a cached token is checked once, and still refused once expired or foreign)', () => {
  afterEach(() => vi.useRealTimers());

  it('answers the same claims for the same token every time', async () => {
    const tokens = new SessionTokens(secret);
    const token = await tokens.sign(user, 3);
    const first = await tokens.verify(token);
    expect(first).toEqual({ user, tokenVersion: 3 });
    expect(await tokens.verify(token)).toBe(first);
  });

  it('refuses a signed payload that is not a session, every time', async () => {
    const tokens = new SessionTokens(secret);
    const other = new HmacJwt(secret, 3600_000).sign({ user: { id: 'x' } });
    expect(await tokens.verify(other)).toBeUndefined();
    expect(await tokens.verify(other)).toBeUndefined();
  });

  it('refuses a token of another secret and a tampered one', async () => {
    const tokens = new SessionTokens(secret);
    const foreign = await new SessionTokens(`${secret}-other`).sign(user, 0);
    expect(await tokens.verify(foreign)).toBeUndefined();
    const token = await tokens.sign(user, 0);
    expect(await tokens.verify(token)).toBeDefined();
    expect(await tokens.verify(`${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`)).toBeUndefined();
  });

  it('refuses a cached token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-26T12:00:00Z') });
    const tokens = new SessionTokens(secret);
    const token = await tokens.sign(user, 0);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(new Date('2026-11-27T12:00:01Z'));
    expect(await tokens.verify(token)).toBeUndefined();
  });
});
