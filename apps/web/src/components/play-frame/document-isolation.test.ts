import { afterEach, describe, expect, it } from 'vitest';
import { documentIsolation, isolationSettled } from './document-isolation';

function setIsolated(value: boolean) {
  Object.defineProperty(window, 'crossOriginIsolated', { value, configurable: true });
}

afterEach(() => {
  sessionStorage.clear();
  setIsolated(false);
});

describe('document isolation of a play screen', () => {
  it('is ready when the document fits the game, and asks for one reload when it does not', () => {
    setIsolated(false);
    expect(documentIsolation(false)).toBe('ready');
    expect(documentIsolation(true)).toBe('reload');
    setIsolated(true);
    expect(documentIsolation(true)).toBe('ready');
    // An isolated document would block the frame of a game that is not isolated (its documents have no COEP).
    expect(documentIsolation(false)).toBe('reload');
  });

  it('after the one reload of this URL: unavailable for an isolated game (no HTTPS, no support), ready otherwise', () => {
    sessionStorage.setItem('reskin.isolation-reload', window.location.href);
    setIsolated(false);
    expect(documentIsolation(true)).toBe('unavailable');
    setIsolated(true);
    expect(documentIsolation(false)).toBe('ready');
    isolationSettled();
    expect(documentIsolation(false)).toBe('reload');
  });
});
