import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` on a clean clone prints no EBADENGINE warning on the Node versions the README names.
 * npm warns when an installed package's `engines.node` does not accept the running Node: so every package the
 * lock file installs on this platform must accept the lowest Node the README promises (the root package.json's
 * `engines`) and Node 24, the LTS the suite also runs on. Platform packages for other systems (sharp's Windows
 * binaries, say) are never installed here and do not count.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const rootPackage = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
};

describe('dependency engines', () => {
  const lowest = semver.minVersion(rootPackage.engines.node)!.version;
  const readme = readFileSync(`${root}README.md`, 'utf8');

  it('the README names the same lowest Node as package.json', () => {
    expect(lowest).toBe('20.19.0');
    expect(readme).toContain('Node.js 20.19 or newer');
  });

  for (const node of [lowest, '24.0.0']) {
    it(`every installed package accepts Node ${node}`, () => {
      const refused = Object.entries(lock.packages)
        .filter(([path]) => path !== '' && existsSync(`${root}${path}`))
        .flatMap(([path, entry]) => {
          const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
          return range && !semver.satisfies(node, range) ? [`${path} needs node ${range}`] : [];
        });
      expect(refused).toEqual([]);
    });
  }
});
