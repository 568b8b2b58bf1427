import { Transform, type Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import mime from 'mime';
import type { StorageConfig } from '../config';
import type { ByteRange, Storage, StoredKey, StoredObject } from './storage';

type S3Config = Extract<StorageConfig, { kind: 's3' }>;

/**
 * The AWS SDK, loaded only when S3 storage is used (S3Storage.open): a server on the local disk never loads it
 * (idle memory).
 */
let loaded: { s3: typeof ClientS3; libStorage: typeof LibStorage } | undefined;

function sdk(): NonNullable<typeof loaded> {
  if (!loaded) throw new Error('The AWS SDK is not loaded: create S3Storage with S3Storage.open.');
  return loaded;
}

/** S3's limit of keys in one DeleteObjects call. */
const deleteBatchSize = 1000;
/**
 * Parts of a streamed upload: S3's smallest part size, two parts in flight. An upload holds at most about
 * three parts in memory, whatever the file's size.
 */
const partSize = 5 * 1024 * 1024;
const partsInFlight = 2;

/** Whether an SDK error means "no such object" (GetObject answers NoSuchKey, HeadObject a bare 404). */
function isNotFound(error: unknown): boolean {
  return (
    error instanceof sdk().s3.S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Whether aborting a multipart upload has nothing left to do: the upload is gone (aborted or completed already),
 * or the store has no such call (s3rver; a bucket lifecycle rule removes such parts there).
 */
function isNothingToAbort(error: unknown): boolean {
  return (
    error instanceof sdk().s3.S3ServiceException &&
    (['NoSuchUpload', 'NotImplemented', 'MethodNotAllowed'].includes(error.name) ||
      [404, 405, 501].includes(error.$metadata.httpStatusCode ?? 0))
  );
}

/** Counts the bytes that pass through (the size of a streamed upload). */
class ByteCounter extends Transform {
  bytes = 0;
  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (error?: Error | null, data?: Buffer) => void,
  ): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

/**
 * Stores objects in a bucket of an S3-compatible object store (STORAGE=s3: AWS S3, MinIO, Cloudflare R2, ...;
 * decision 0015) with the AWS SDK v3. Keys are the same as on the local disk, so `npm run storage:copy` moves an
 * install over unchanged. Uploads stream through lib-storage's multipart Upload: an object exists only once its
 * upload completes, and a failed stream aborts the upload.
 */
export class S3Storage implements Storage {
  private readonly sdk = sdk();
  private readonly client: S3Client;
  private readonly bucket: string;
  /**
   * Multipart uploads of this process that failed and could not be aborted then (the store was unreachable):
   * upload id to key. removeFailedWrites aborts them once the store answers, whatever their age.
   */
  private readonly unaborted = new Map<string, string>();

  /** Loads the AWS SDK (once), then makes the storage. */
  static async open(config: S3Config, listPageSize?: number): Promise<S3Storage> {
    loaded ??= { s3: await import('@aws-sdk/client-s3'), libStorage: await import('@aws-sdk/lib-storage') };
    return new S3Storage(config, listPageSize);
  }

  /** `listPageSize`: keys per ListObjectsV2 page (S3's most is 1000; tests use a small one to page). */
  private constructor(
    config: S3Config,
    private readonly listPageSize = 1000,
  ) {
    this.bucket = config.bucket;
    this.client = new this.sdk.s3.S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint && { endpoint: config.endpoint }),
      ...(config.accessKeyId &&
        config.secretAccessKey && {
          credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
        }),
      // Checksums only where the operation requires them: several S3-compatible stores refuse the newer defaults.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Throws unless the bucket exists and these credentials may use it (checked once at start). */
  async assertReachable(): Promise<void> {
    await this.client.send(new this.sdk.s3.HeadBucketCommand({ Bucket: this.bucket }));
  }

  async put(key: string, data: Readable | Buffer): Promise<{ size: number }> {
    const contentType = mime.getType(key) ?? 'application/octet-stream';
    if (Buffer.isBuffer(data)) {
      // A body in memory is sent in one request (S3 takes up to 5 GB so): about a third less of the SDK's CPU than an upload's.
      await this.client.send(
        new this.sdk.s3.PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: data,
          ContentType: contentType,
        }),
      );
      return { size: data.length };
    }
    const counter = new ByteCounter();
    // An error of the source reaches the counter, so the upload fails (and is aborted) instead of completing short.
    let sourceError: Error | undefined;
    data.once('error', (error) => {
      sourceError = error;
      counter.destroy(error);
    });
    const upload = new this.sdk.libStorage.Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: data.pipe(counter), ContentType: contentType },
      partSize,
      queueSize: partsInFlight,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      data.destroy();
      counter.destroy();
      // lib-storage aborts a failed upload, but when the store was unreachable that abort failed too, and its parts
      // would stay an hour (removeAbandonedWrites' age): this process remembers it and aborts it once it can.
      const { uploadId } = upload;
      if (uploadId) await this.abortUpload(key, uploadId).catch(() => this.unaborted.set(uploadId, key));
      // The source's failure is the one to report.
      throw sourceError ?? error;
    }
    return { size: counter.bytes };
  }

  async copy(from: string, to: string): Promise<{ size: number }> {
    await this.client.send(
      new this.sdk.s3.CopyObjectCommand({
        Bucket: this.bucket,
        Key: to,
        CopySource: `${this.bucket}/${encodeURIComponent(from).replace(/%2F/g, '/')}`,
        ContentType: mime.getType(to) ?? 'application/octet-stream',
        MetadataDirective: 'REPLACE',
      }),
    );
    const stored = await this.stat(to);
    if (!stored) throw new Error(`the copy of ${from} to ${to} is missing`);
    return stored;
  }

  async makeDurable(): Promise<void> {
    // An object is durable once its upload has completed.
  }

  async get(key: string, range?: ByteRange): Promise<StoredObject | undefined> {
    try {
      const answer = await this.client.send(
        new this.sdk.s3.GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      // With a range, the whole size is in Content-Range (bytes 0-99/1234).
      const total = range
        ? Number(/\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1])
        : Number(answer.ContentLength);
      return {
        stream: answer.Body as Readable,
        size: total,
        contentType: mime.getType(key) ?? 'application/octet-stream',
        ...(range && { range }),
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const answer = await this.client.send(
        new this.sdk.s3.HeadObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return { size: Number(answer.ContentLength) };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new this.sdk.s3.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deleteMany(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += deleteBatchSize) {
      const batch = keys.slice(i, i + deleteBatchSize);
      const answer = await this.client.send(
        new this.sdk.s3.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = answer.Errors ?? [];
      if (failed.length > 0)
        throw new Error(
          `S3 could not delete ${failed.length} object(s), first ${failed[0]!.Key}: ${failed[0]!.Message}`,
        );
    }
  }

  async *list(prefix = ''): AsyncIterable<StoredKey> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.s3.ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: this.listPageSize,
          ContinuationToken: token,
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Aborts one multipart upload (nothing to abort: done too); throws while the store cannot. */
  private async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(
        new this.sdk.s3.AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }),
      );
    } catch (error) {
      if (!isNothingToAbort(error)) throw error;
    }
    this.unaborted.delete(uploadId);
  }

  async removeFailedWrites(): Promise<number> {
    let removed = 0;
    for (const [uploadId, key] of [...this.unaborted]) {
      await this.abortUpload(key, uploadId);
      removed++;
    }
    return removed;
  }

  /**
   * Aborts the multipart uploads started before `before` that never completed (a server killed while it
   * streamed an upload leaves its parts, which the store keeps and bills until aborted). A store that cannot
   * list uploads (some S3-compatible servers) has none to remove here; a bucket lifecycle rule then does it.
   */
  async removeAbandonedWrites(before: Date): Promise<number> {
    let removed = await this.removeFailedWrites();
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new this.sdk.s3.ListMultipartUploadsCommand({
            Bucket: this.bucket,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
      } catch (error) {
        if (error instanceof sdk().s3.S3ServiceException && error.name === 'NotImplemented') return removed;
        throw error;
      }
      for (const upload of page.Uploads ?? []) {
        if (!upload.Key || !upload.UploadId || !upload.Initiated || upload.Initiated >= before) continue;
        await this.client.send(
          new this.sdk.s3.AbortMultipartUploadCommand({
            Bucket: this.bucket,
            Key: upload.Key,
            UploadId: upload.UploadId,
          }),
        );
        removed++;
      }
      [keyMarker, uploadIdMarker] = page.IsTruncated
        ? [page.NextKeyMarker, page.NextUploadIdMarker]
        : [undefined, undefined];
    } while (keyMarker);
    return removed;
  }

  /** Closes the SDK's connections (app close). */
  close(): void {
    this.client.destroy();
  }
}
