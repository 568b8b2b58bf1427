import { describe, expect, it } from 'vitest';
import { PlayOrigins } from './play-origins';

describe('PlayOrigins (decision 0017)', () => {
  it('gives each game a host of its own with {game}, and the app a wildcard CSP source for all of them', () => {
    const origins = new PlayOrigins('http://g{game}.localhost:3001');
    expect(origins.perGame).toBe(true);
    expect(origins.of(42)).toBe('http://g42.localhost:3001');
    expect(origins.cspSource).toBe('http://*.localhost:3001');
    expect(origins.servesGame('g42.localhost:3001', 42)).toBe(true);
    expect(origins.servesGame('G42.LOCALHOST:3001', 42)).toBe(true);
    expect(origins.servesGame('g43.localhost:3001', 42)).toBe(false);
    expect(origins.servesGame('localhost:3001', 42)).toBe(false);
    expect(origins.servesGame(undefined, 42)).toBe(false);
    expect(new PlayOrigins('https://g{game}.play.example-games.com').cspSource).toBe(
      'https://*.play.example-games.com',
    );
  });

  it('serves every game from one origin without {game}', () => {
    const origins = new PlayOrigins('https://play.example-games.com');
    expect(origins.perGame).toBe(false);
    expect(origins.of(42)).toBe('https://play.example-games.com');
    expect(origins.cspSource).toBe('https://play.example-games.com');
    expect(origins.servesGame('anything', 42)).toBe(true);
  });
});
