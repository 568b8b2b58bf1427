import { errorCodes, limits, uploadMessages } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import type { UploadOutcome, UploadPart } from '../../../lib/upload-request';
import { fileItem, type UploadItem } from '../../../lib/upload-item';
import { planBatches, uploadInBatches } from './upload-batches';

const MB = 1024 * 1024;

describe('planBatches', () => {
  it('keeps the order and puts every file in exactly one batch', () => {
    const sizes = Array.from({ length: 1552 }, (_, i) => 1000 + i);
    const batches = planBatches(sizes);
    expect(batches.flat()).toEqual(sizes.map((_, i) => i));
  });

  it('puts at most limits.uploadBatch.files files in a batch, within what one request of the server takes', () => {
    expect(limits.uploadBatch.files).toBeLessThanOrEqual(limits.adminUploadFiles);
    const batches = planBatches(new Array<number>(1552).fill(100));
    expect(batches.map((batch) => batch.length)).toEqual([
      ...new Array<number>(Math.floor(1552 / limits.uploadBatch.files)).fill(limits.uploadBatch.files),
      1552 % limits.uploadBatch.files,
    ]);
  });

  it('puts at most limits.uploadBatch.bytes bytes in a batch, and a larger file alone', () => {
    const { bytes } = limits.uploadBatch;
    const sizes = [bytes / 2, bytes / 2, 1, bytes + 1, 10, bytes - 10, 6];
    expect(planBatches(sizes)).toEqual([[0, 1], [2], [3], [4, 5], [6]]);
    for (const batch of planBatches(sizes)) {
      const total = batch.reduce((sum, index) => sum + sizes[index]!, 0);
      expect(batch.length === 1 || total <= bytes).toBe(true);
    }
  });

  it('takes other limits', () => {
    expect(planBatches([5, 5, 5, 5, 5], { files: 2, bytes: 12 })).toEqual([[0, 1], [2, 3], [4]]);
    expect(planBatches([5, 5, 5, 5, 5], { files: 10, bytes: 12 })).toEqual([[0, 1], [2, 3], [4]]);
    expect(planBatches([], { files: 2, bytes: 12 })).toEqual([]);
  });
});

/** A folder route stand-in with the server's all-or-nothing answer: refuses a request holding a refused path. */
function folderRoute(
  refuse: (path: string) => string | null,
  options: { named?: boolean; transient?: number[] } = {},
) {
  const requests: string[][] = [];
  const stored = new Set<string>();
  const answers = [...(options.transient ?? [])];
  const send = async (
    parts: UploadPart[],
    onProgress: (loaded: number, total: number) => void,
  ): Promise<UploadOutcome> => {
    requests.push(parts.map((part) => part.fullPath));
    onProgress(50, 100);
    const status = answers.shift();
    if (status !== undefined)
      return { ok: false, status, title: 'Server error', message: 'It broke.', body: undefined };
    const refusals = parts.flatMap((part) => {
      const message = refuse(part.fullPath);
      return message === null
        ? []
        : [{ path: options.named === false ? '/fullPath' : `/files/${part.fullPath}`, code: 'x', message }];
    });
    if (refusals.length > 0) {
      const body = {
        error: {
          statusCode: 422,
          name: 'UnprocessableEntityError',
          message: refusals[0]!.message,
          code: errorCodes.validationFailed,
          details: refusals,
        },
      };
      return { ok: false, status: 422, title: 'Upload failed', message: refusals[0]!.message, body };
    }
    for (const part of parts) stored.add(part.fullPath);
    return { ok: true, status: 200, body: [] };
  };
  return { send, requests, stored };
}

async function run(
  items: UploadItem[],
  route: ReturnType<typeof folderRoute>,
  batch = { files: 4, bytes: MB },
) {
  const settled: { path: string; message?: string }[] = [];
  const result = await uploadInBatches({
    items,
    send: route.send,
    signal: new AbortController().signal,
    onSending: () => {},
    onSettled: (indices, failure) => {
      for (const index of indices) settled.push({ path: items[index]!.fullPath, message: failure?.message });
    },
    batch,
    concurrent: 1,
    retryDelaysMs: [0, 0],
  });
  return { settled, result };
}

const items = (count: number) =>
  Array.from({ length: count }, (_, i) => fileItem(new File([`file ${i}`], `f${i}.txt`), `data/f${i}.txt`));

describe('uploadInBatches', () => {
  it('sends every file once, in batches and in order, and settles each once', async () => {
    const route = folderRoute(() => null);
    const { settled } = await run(items(10), route);
    expect(route.requests.map((request) => request.length)).toEqual([4, 4, 2]);
    expect(route.requests.flat()).toEqual(items(10).map((item) => item.fullPath));
    expect(settled.filter((row) => row.message === undefined)).toHaveLength(10);
    expect(route.stored.size).toBe(10);
  });

  it('sends a refused batch again without the files its refusal names, and lists those with the reason', async () => {
    const route = folderRoute((path) =>
      path === 'data/f2.txt' ? 'Original Size 40 x 30 Loaded Size 41 x 30' : null,
    );
    const { settled } = await run(items(8), route);
    expect(route.requests).toEqual([
      ['data/f0.txt', 'data/f1.txt', 'data/f2.txt', 'data/f3.txt'],
      ['data/f0.txt', 'data/f1.txt', 'data/f3.txt'],
      ['data/f4.txt', 'data/f5.txt', 'data/f6.txt', 'data/f7.txt'],
    ]);
    expect(settled.filter((row) => row.message !== undefined)).toEqual([
      { path: 'data/f2.txt', message: 'Original Size 40 x 30 Loaded Size 41 x 30' },
    ]);
    expect(route.stored.size).toBe(7);
  });

  it('halves a refused batch whose refusal names no file until the refused file is alone', async () => {
    const message = uploadMessages.fileTooLarge('data/f5.txt', 50 * MB);
    const route = folderRoute((path) => (path === 'data/f5.txt' ? message : null), { named: false });
    const { settled } = await run(items(8), route, { files: 8, bytes: MB });
    expect(settled.filter((row) => row.message !== undefined)).toEqual([{ path: 'data/f5.txt', message }]);
    expect([...route.stored].sort()).toEqual(
      items(8)
        .map((item) => item.fullPath)
        .filter((path) => path !== 'data/f5.txt')
        .sort(),
    );
    // 8 refused -> 4 stored, 4 refused -> 2 refused -> 1 stored, 1 refused (listed) -> 2 stored.
    expect(route.requests.map((request) => request.length)).toEqual([8, 4, 4, 2, 1, 1, 2]);
  });

  it('sends a request again after no answer or a 5xx, then goes on', async () => {
    const route = folderRoute(() => null, { transient: [0, 503] });
    const { settled } = await run(items(5), route);
    expect(route.requests.map((request) => request.length)).toEqual([4, 4, 4, 1]);
    expect(settled.every((row) => row.message === undefined)).toBe(true);
    expect(route.stored.size).toBe(5);
  });

  it('stops after a request that keeps breaking or a full disk, and lists every file not stored', async () => {
    const broken = folderRoute(() => null, { transient: [503, 503, 503] });
    const first = await run(items(10), broken);
    expect(broken.requests).toHaveLength(3);
    expect(first.settled.filter((row) => row.message === 'It broke.')).toHaveLength(10);

    const full = folderRoute(() => null, { transient: [507] });
    const second = await run(items(10), full);
    expect(full.requests).toHaveLength(1);
    expect(second.settled.map((row) => row.path).sort()).toEqual(
      items(10)
        .map((item) => item.fullPath)
        .sort(),
    );
    expect(second.settled.every((row) => row.message === 'It broke.')).toBe(true);
  });

  it('lists a file that cannot be read and sends the others', async () => {
    const unreadable: UploadItem = {
      fullPath: 'bad.bin',
      size: 3,
      read: () => Promise.reject(new Error('broken entry')),
    };
    const route = folderRoute(() => null);
    const { settled } = await run([...items(2), unreadable], route);
    expect(route.requests).toEqual([['data/f0.txt', 'data/f1.txt']]);
    expect(settled.find((row) => row.path === 'bad.bin')?.message).toBe('bad.bin: broken entry');
  });
});
