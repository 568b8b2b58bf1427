import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import sharp from 'sharp';
import type { Game } from '@reskin/contract';

export interface UploadResult {
  files: number;
  megabytes: number;
  seconds: number;
  /** The server process's peak resident memory (VmHWM) over its whole life, start-up included. */
  serverPeakRssMb: number;
  /** DESIGN.md's target: under 300 MB. */
  underTarget: boolean;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/**
 * Uploads 1000 files (about 150 MB: scripts, 100 PNG images, a few 10 MB blobs) in one multipart request to
 * the real server running in its own process, and reads that process's peak RSS from /proc. `storageEnv`
 * points it at another storage (STORAGE=s3 and S3_*).
 */
export async function benchUpload(storageEnv: Record<string, string> = {}): Promise<UploadResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reskin-bench-upload-'));
  const port = await freePort();
  const serverDir = new URL('..', import.meta.url).pathname;
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: String(port),
      PLAY_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-pass-1',
      MAX_FILE_SIZE_MB: '20',
      ...storageEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api`;
  try {
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/config`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (i > 300) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const login = await fetch(`${base}/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass-1' }),
    });
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const created = await fetch(`${base}/games`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Upload bench', description: 'x', width: 640, height: 480 }),
    });
    const game = (await created.json()) as Game;

    const png = await sharp({ create: { width: 256, height: 256, channels: 4, background: 'teal' } })
      .png()
      .toBuffer();
    const body = new FormData();
    let bytes = 0;
    for (let i = 0; i < 1000; i++) {
      const [path, content] =
        i < 100
          ? [`assets/img/${i}.png`, png]
          : i < 106
            ? [`assets/blob/${i}.bin`, randomBytes(10 * 1024 * 1024)]
            : [`src/module-${i}.js`, Buffer.from(`export const n${i} = ${i};\n`.repeat(1500))];
      bytes += content.length;
      body.append('fullPath', path);
      body.append('file', new Blob([content]), path.split('/').pop());
    }
    const started = performance.now();
    const response = await fetch(`${base}/game/upload/${game.id}`, { method: 'POST', headers: auth, body });
    const seconds = (performance.now() - started) / 1000;
    if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
    const files = ((await response.json()) as unknown[]).length;
    const serverPeakRssMb = peakRssMb(server.pid!);
    return {
      files,
      megabytes: bytes / 1024 / 1024,
      seconds,
      serverPeakRssMb,
      underTarget: serverPeakRssMb < 300,
    };
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
