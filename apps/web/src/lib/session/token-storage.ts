import { storageKeys } from '@reskin/contract';

/** The session token lives in local storage (SPEC §3), so a new tab or a reload starts logged in. */
export function readToken(): string | null {
  return localStorage.getItem(storageKeys.token);
}

export function writeToken(token: string): void {
  localStorage.setItem(storageKeys.token, token);
}

export function clearToken(): void {
  localStorage.removeItem(storageKeys.token);
}
