import { rmSync } from 'node:fs';

/** Removes the temporary data dir that playwright.config.ts made (never one the runner passed in). */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DATA_DIR;
  if (process.env.E2E_DATA_DIR_CREATED === '1' && dir) rmSync(dir, { recursive: true, force: true });
}
