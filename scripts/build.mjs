#!/usr/bin/env node
// The production build (`npm run build`, and `npm start` before it runs the server):
// - the server: apps/server/src bundled by esbuild into apps/server/dist/server.js (plain JavaScript for
//   `node`; npm packages stay external, the contract's TypeScript source is bundled in);
// - the web app: `vite build` in production mode, whatever NODE_ENV the shell has, with .br and .gz copies
//   of its text assets, published into apps/web/dist without touching a file a running server serves.
// Each target is built only when missing or stale: a hash of its inputs is kept beside the output.
// `--force` builds both anyway. Only Node's own modules are imported here; esbuild and vite (dev
// dependencies) are loaded only when something must be built.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path) => join(root, path);
const stampFile = '.build-stamp.json';

/**
 * Every file under the given paths (files or folders), tests left out, sorted by repo-relative path, with its size
 * and modification time.
 */
function inputFiles(paths) {
  const files = [];
  const walk = (path) => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) walk(join(path, entry));
    } else if (!/\.test\.tsx?$/.test(path)) {
      files.push({ file: relative(root, path), size: stats.size, modified: stats.mtimeMs });
    }
  };
  for (const path of paths) walk(at(path));
  return files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * The files' names, sizes and modification times in one line: while it equals the stamp's, the sources are those
 * the build was made of, and `npm start` reads none of them (hashing them all was a tenth of its start-up).
 */
function signatureOf(files) {
  return files.map(({ file, size, modified }) => `${file}:${size}:${modified}`).join('\n');
}

function hashOf(files) {
  const hash = createHash('sha256');
  for (const { file } of files)
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(at(file)))
      .update('\0');
  return hash.digest('hex');
}

function readStamp(outDir) {
  try {
    return JSON.parse(readFileSync(join(outDir, stampFile), 'utf8'));
  } catch {
    return undefined;
  }
}

function writeAtomically(file, content) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}

/** A dev dependency's module path, or a clear error when the dependencies were installed without dev ones. */
function devDependency(name, fromWorkspace) {
  try {
    return createRequire(at(`${fromWorkspace}/package.json`)).resolve(name);
  } catch {
    throw new Error(
      `${name} is not installed, so the stale or missing build cannot be made: run \`npm ci\` (with dev dependencies) and \`npm run build\`.`,
    );
  }
}

/**
 * npm packages bundled into the server like its own code: pure JavaScript that no other package imports. Kysely is
 * 279 ES modules, each resolved, read and linked on its own at start-up (a tenth of it); bundled it is one file's
 * parse (decision 0064).
 */
const bundledPackages = ['kysely', 'zod', 'fastify-type-provider-zod'];

/** Every npm package stays external (imported from node_modules at run time), but the bundled ones and our own. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      const name = path
        .split('/')
        .slice(0, path.startsWith('@') ? 2 : 1)
        .join('/');
      if (name.startsWith('@reskin/') || bundledPackages.includes(name)) return undefined;
      return { path, external: true };
    });
  },
};

const contractInputs = ['packages/contract/src', 'packages/contract/package.json', 'package-lock.json'];

const targets = {
  server: {
    outDir: at('apps/server/dist'),
    output: 'server.js',
    inputs: ['apps/server/src', 'apps/server/package.json', 'apps/server/tsconfig.json', ...contractInputs],
    async build(outDir) {
      const esbuild = await import(devDependency('esbuild', 'apps/server'));
      mkdirSync(outDir, { recursive: true });
      const temporary = join(outDir, `server.${process.pid}.tmp.js`);
      await esbuild.build({
        entryPoints: [at('apps/server/src/server.ts')],
        outfile: temporary,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20.19',
        plugins: [externalPackages],
        logLevel: 'warning',
      });
      renameSync(temporary, join(outDir, 'server.js'));
      // The ffmpeg worker (decision 0029) is plain JavaScript that the bundle starts from beside itself.
      copyFileSync(
        at('apps/server/src/modules/versions/audio-conversion/ffmpeg-worker.mjs'),
        join(outDir, 'ffmpeg-worker.mjs'),
      );
    },
  },
  web: {
    outDir: at('apps/web/dist'),
    output: 'index.html',
    inputs: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
      ...contractInputs,
    ],
    async build(outDir, previousStamp) {
      const viteBin = join(devDependency('vite/package.json', 'apps/web'), '..', 'bin', 'vite.js');
      const temporary = at(`apps/web/.dist-${process.pid}`);
      rmSync(temporary, { recursive: true, force: true });
      try {
        const result = spawnSync(
          process.execPath,
          [
            viteBin,
            'build',
            '--mode',
            'production',
            '--outDir',
            temporary,
            '--emptyOutDir',
            '--logLevel',
            'warn',
          ],
          // React and the other libraries pick their production build from NODE_ENV.
          { cwd: at('apps/web'), stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
        );
        if (result.status !== 0)
          throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
        const assets = readdirSync(join(temporary, 'assets'));
        for (const name of assets) precompress(join(temporary, 'assets', name));
        return publishWeb(temporary, outDir, previousStamp);
      } finally {
        rmSync(temporary, { recursive: true, force: true });
      }
    },
  },
};

const compressible = /\.(js|mjs|css|html|svg|json|txt|map)$/;

/** Writes name.br and name.gz beside a text asset, served by @fastify/static's preCompressed option. */
function precompress(file) {
  if (!compressible.test(file)) return;
  const content = readFileSync(file);
  if (content.length < 1024) return;
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
}

/**
 * Moves a fresh web build into dist without rewriting a file in use: content-hashed assets are added
 * beside the old ones (same name, same content), index.html is replaced by a rename, and assets of builds
 * older than the previous one are removed. A running server keeps its own index.html in memory.
 */
function publishWeb(built, outDir, previousStamp) {
  const assetsDir = join(outDir, 'assets');
  mkdirSync(assetsDir, { recursive: true });
  const assets = readdirSync(join(built, 'assets'));
  for (const name of assets) {
    if (!existsSync(join(assetsDir, name))) renameSync(join(built, 'assets', name), join(assetsDir, name));
  }
  renameSync(join(built, 'index.html'), join(outDir, 'index.html'));
  const keep = new Set([...assets, ...(previousStamp?.assets ?? [])]);
  for (const name of readdirSync(assetsDir)) {
    if (!keep.has(name)) rmSync(join(assetsDir, name), { force: true });
  }
  return { assets, previousAssets: previousStamp?.assets ?? [] };
}

/**
 * Builds what is missing or stale and answers the names of the targets it built. A target whose sources
 * are absent (a deployment that ships only dist/) is taken as it is.
 */
export async function buildIfStale({ force = false, log = console.log } = {}) {
  const built = [];
  for (const [name, target] of Object.entries(targets)) {
    const files = inputFiles(target.inputs);
    const present = existsSync(join(target.outDir, target.output));
    const sourcesPresent = files.some(({ file }) => file.endsWith('.ts') || file.endsWith('.tsx'));
    if (!sourcesPresent) {
      if (!present) throw new Error(`Neither ${relative(root, target.outDir)} nor its sources are here.`);
      continue;
    }
    const stamp = readStamp(target.outDir);
    const signature = createHash('sha256').update(signatureOf(files)).digest('hex');
    if (!force && present && stamp?.signature === signature) continue;
    // Touched but unchanged (a checkout, a copy): the content decides, and the stamp keeps the new signature.
    const hash = hashOf(files);
    if (!force && present && stamp?.hash === hash) {
      writeAtomically(join(target.outDir, stampFile), JSON.stringify({ ...stamp, signature }));
      continue;
    }
    const started = Date.now();
    log(`Building the ${name} (${present ? 'sources changed' : 'not built yet'})...`);
    const extra = (await target.build(target.outDir, stamp)) ?? {};
    writeAtomically(
      join(target.outDir, stampFile),
      JSON.stringify({ hash, signature, builtAt: new Date().toISOString(), ...extra }),
    );
    log(`Built the ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    built.push(name);
  }
  return built;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildIfStale({ force: process.argv.includes('--force') });
  } catch (error) {
    console.error(`Build failed: ${error.message}`);
    process.exit(1);
  }
}
