import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `npm install` runs a dependency's install scripts only when the root package.json's `allowScripts` approves it
 * (npm 12 skips the rest; npm 11.16+ warns about them): decision 0046. Every installed package (as the lock file
 * places it, on this platform) with a preinstall, install or postinstall script, or a binding.gyp (npm then runs
 * `node-gyp rebuild` for it), must have an entry there: true when it was reviewed and is needed, false when it
 * was reviewed and is not.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const rootPackage = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
  packages: Record<string, { link?: boolean }>;
};
const installHooks = ['preinstall', 'install', 'postinstall'] as const;

/** The installed packages that would run something on install: `name@version (what it runs)`. */
function packagesWithInstallScripts(): { name: string; version: string; runs: string }[] {
  return Object.entries(lock.packages)
    .filter(
      ([path, entry]) =>
        path.includes('node_modules/') && !entry.link && existsSync(`${root}${path}/package.json`),
    )
    .flatMap(([path]) => {
      const manifest = JSON.parse(readFileSync(`${root}${path}/package.json`, 'utf8')) as {
        name: string;
        version: string;
        scripts?: Record<string, string>;
      };
      const scripts = installHooks
        .filter((hook) => manifest.scripts?.[hook] !== undefined)
        .map((hook) => `${hook}: ${manifest.scripts![hook]}`);
      if (scripts.length === 0 && existsSync(`${root}${path}/binding.gyp`))
        scripts.push('install: node-gyp rebuild (binding.gyp)');
      return scripts.length > 0
        ? [{ name: manifest.name, version: manifest.version, runs: scripts.join('; ') }]
        : [];
    });
}

/** Whether an allowScripts key (`name`, or `name@range` as npm's pinned entries are) covers a package. */
function covers(key: string, { name, version }: { name: string; version: string }): boolean {
  const at = key.lastIndexOf('@');
  if (at <= 0) return key === name;
  return key.slice(0, at) === name && semver.satisfies(version, key.slice(at + 1));
}

describe('install scripts of dependencies are reviewed (allowScripts)', () => {
  const allowScripts = rootPackage.allowScripts ?? {};
  const installing = packagesWithInstallScripts();

  it('the lock file installs packages with install scripts here (the check reads what it should)', () => {
    expect(installing.map((pkg) => pkg.name)).toContain('better-sqlite3');
  });

  it('npm install runs or skips no unreviewed install script: each is approved or denied in package.json', () => {
    const unreviewed = installing.filter((pkg) => !Object.keys(allowScripts).some((key) => covers(key, pkg)));
    expect(unreviewed.map((pkg) => `${pkg.name}@${pkg.version} (${pkg.runs})`)).toEqual([]);
  });

  it('the server builds its SQLite driver on install: better-sqlite3 is approved, not denied', () => {
    expect(
      Object.entries(allowScripts).filter(([key]) =>
        covers(
          key,
          installing.find((pkg) => pkg.name === 'better-sqlite3')!,
        ),
      ),
    ).toEqual([['better-sqlite3', true]]);
  });

  it('every allowScripts entry still names an installed package with install scripts (no stale approvals)', () => {
    const stale = Object.keys(allowScripts).filter((key) => !installing.some((pkg) => covers(key, pkg)));
    expect(stale).toEqual([]);
  });
});
