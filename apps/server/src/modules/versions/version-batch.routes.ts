import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  batchAnswerSchema,
  batchMessages,
  batchOptionsSchema,
  batchParamsSchema,
  batchPartsSchema,
  batchQuerySchema,
  errorCodes,
  extensionOfName,
  fitPreviewParamsSchema,
  fitPreviewQuerySchema,
  limits,
  normaliseIncomingPath,
  uploadMessages,
  type BatchOptions,
} from '@reskin/contract';
import { AppError, badRequest, noFile, unprocessable, withDetail } from '../../lib/errors';
import {
  fileContent,
  fileTooLarge,
  maxMultipartBytes,
  multipartError,
  readUpload,
  refuseDeclaredBodyOver,
  streamUpload,
} from '../../lib/multipart';
import { currentUser } from '../../plugins/auth';
import { storageFault } from '../../storage/storage-faults';
import { checkDeclared, entryBytes, openZip, readEntries, zipBomb } from '../games/game-zip';
import { maxBatchBytes, type BatchIncomingFile, type IncomingContent } from './batch/batch-rows';
import type { VersionBatchService } from './version-batch.service';

const changeErrors = {
  403: 'Demo accounts cannot create or change versions (FORBIDDEN).',
  404: 'No such version, or not one of your active assignments (NOT_FOUND).',
  423: 'The version is locked (VERSION_LOCKED) or disabled (VERSION_DISABLED).',
};

/** 413: more files than the game has. */
const tooManyFiles = (max: number) => {
  const message = batchMessages.tooManyFiles(max);
  return withDetail(413, errorCodes.tooManyFiles, message, '/file', 'too_many_files');
};

/** The body of a fit preview: one file. */
const fitPreviewPartsSchema = batchPartsSchema.pick({ file: true });

/**
 * Replace from a folder or a zip: POST /game-versions/{versionId}/batch, and the preview of a fit.
 */
export async function versionBatchRoutes(
  app: FastifyInstance,
  { batch, maxFileSizeBytes }: { batch: VersionBatchService; maxFileSizeBytes: number },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['game-versions'];
  const user = { onRequest: app.requireUser };

  r.post(
    '/game-versions/:versionId/batch',
    {
      ...user,
      // The files of a batch may hold at most the unpacked limit of a game zip (receive); the room above it is
      // for the path and option fields of a batch of many files.
      preValidation: refuseDeclaredBodyOver(maxBatchBytes + 64 * 1024 * 1024, () => zipBomb(batchTooLarge)),
      schema: {
        tags,
        summary:
          'Replace many files at once from a folder (repeated `path` field, then `file`) or one .zip: dryRun answers the plan, otherwise each row is applied (fitted or converted to the original) and answered',
        params: batchParamsSchema,
        querystring: batchQuerySchema,
        multipartBody: batchPartsSchema,
        response: { 200: batchAnswerSchema },
        errors: {
          ...changeErrors,
          400: 'A malformed multipart body, or a path longer than the longest game path (MALFORMED_MULTIPART, VALIDATION_FAILED).',
          413: 'More files than the game has, a batch (or its .zip unpacked) over limits.versionBatch.maxBytes, or a zip over its limits (TOO_MANY_FILES, ZIP_BOMB, FILE_TOO_LARGE).',
          503: 'As many batches as the server takes at once run and wait (limits.versionBatch): try again after Retry-After (SERVER_BUSY).',
          507: 'The temporary folder or DATA_DIR is below its free-space threshold, or filled up while the batch was written (STORAGE_FULL, naming it).',
          422: 'No file, an option that breaks its rule (choices or skip that are not JSON, an unknown fit), or a .zip that cannot be read (INVALID_ZIP). Refusals of single files are rows of the answer.',
        },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const { version, maxFiles } = await batch.open(caller, request.params.versionId);
      return batch.inTurn(caller, async () => {
        const dir = await mkdtemp(join(tmpdir(), 'reskin-batch-')).catch((error: unknown) => {
          throw storageFault(error, 'temp');
        });
        let received: Received | undefined;
        try {
          received = await receive(request, dir, maxFiles, maxFileSizeBytes);
          const options = parseOptions({ ...request.query, ...received.fields });
          return await batch.run(caller, version, received.files, options);
        } finally {
          await received?.close();
          await rm(dir, { recursive: true, force: true });
        }
      });
    },
  );

  r.post(
    '/game-versions/:versionId/files/:fileId/fit-preview',
    {
      ...user,
      preValidation: refuseDeclaredBodyOver(maxMultipartBytes(1, maxFileSizeBytes), () =>
        fileTooLarge(undefined, maxFileSizeBytes),
      ),
      schema: {
        tags,
        summary:
          "The multipart `file` fitted to the original's (or the frame's) size and format exactly as the batch stores it",
        params: fitPreviewParamsSchema,
        querystring: fitPreviewQuerySchema,
        multipartBody: fitPreviewPartsSchema,
        errors: {
          ...changeErrors,
          404: 'No such version, game file or frame (NOT_FOUND).',
          422: 'No file, or an image that cannot be fitted (the message says why).',
        },
      },
    },
    async (request, reply) => {
      const { file, content } = await readUpload(request, fitPreviewPartsSchema, { maxFileSizeBytes });
      const { params, query } = request;
      const preview = await batch.preview(currentUser(request), params.versionId, params.fileId, {
        fit: query.fit,
        frame: query.frame ?? null,
        fileName: file.filename,
        content,
      });
      return reply.type(preview.contentType).header('Cache-Control', 'no-store').send(preview.bytes);
    },
  );
}

/** The options of the query and the form fields together, checked (422 VALIDATION_FAILED, as a query's rule is). */
function parseOptions(raw: Record<string, unknown>): BatchOptions {
  const parsed = batchOptionsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.map((issue) => ({
    path: `/${issue.path.join('/')}`,
    code: 'invalid',
    message: issue.message,
  }));
  throw unprocessable(details[0]?.message ?? 'The batch options are invalid.', details);
}

const batchTooLarge = batchMessages.tooLarge;

/** A batch's files and fields as received; `close` lets go of its .zip (its entries are read while it is planned). */
interface Received {
  files: BatchIncomingFile[];
  fields: Record<string, unknown>;
  close(): Promise<void>;
}

/** A part of a folder's body, written to a temporary file as it arrived. */
function temporaryContent(file: string): IncomingContent {
  return {
    bytes: () => readFile(file),
    file: async () => file,
    beside: (suffix) => `${file}.${suffix}`,
  };
}

/**
 * Reads the body, its fields parsed by the contract's batchPartsSchema (a `path` over its limit is a 400): each
 * file part goes to a temporary file (named by the `path` field before it, else its file name); a file over the
 * per-file limit is kept as a row without content (refused as too large), more files than `maxFiles` or more bytes
 * than a game zip may unpack to refuse the batch (413). One .zip alone is opened with the game zip upload's checks
 * (game-zip.ts: declared sizes, ratio, total, names) and its entries read when their rows are planned.
 */
async function receive(
  request: FastifyRequest,
  dir: string,
  maxFiles: number,
  maxFileSizeBytes: number,
): Promise<Received> {
  const files: BatchIncomingFile[] = [];
  let total = 0;
  const zipLimit = Math.max(limits.zipUpload.maxZipBytes, maxFileSizeBytes);
  const upload = streamUpload(request, batchPartsSchema, {
    maxFileSizeBytes,
    limits: {
      fileSize: zipLimit,
      files: maxFiles + 1,
      fields: maxFiles + 20,
      parts: maxFiles * 2 + 30,
      fieldSize: 1_000_000,
    },
    badField: (_name, issue) => badRequest(issue.message, errorCodes.validationFailed),
  });
  try {
    for await (const { part, fields } of upload.files) {
      const incoming =
        normaliseIncomingPath(fields.path ?? part.filename ?? '') || `file-${files.length + 1}`;
      if (files.length >= maxFiles) {
        part.file.resume();
        throw tooManyFiles(maxFiles);
      }
      const limit = extensionOfName(incoming) === 'zip' ? zipLimit : maxFileSizeBytes;
      const target = join(dir, `in-${files.length}`);
      let size = 0;
      let over = false;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          total += chunk.length;
          if (total > maxBatchBytes) return callback(zipBomb(batchTooLarge));
          if (size > limit) over = true;
          callback(null, over ? undefined : chunk);
        },
      });
      const content = fileContent(part, incoming, zipLimit);
      let sourceError: unknown;
      content.once('error', (error) => (sourceError = error));
      await pipeline(content, counter, createWriteStream(target)).catch((error: unknown) => {
        // The body's own failure (cut short, malformed) and the batch's limits are the request's; the temporary
        // folder's (full, unwritable) is the server's: 507 or 503, as the game zip upload answers.
        if (error === sourceError || error instanceof AppError) throw error;
        throw storageFault(error, 'temp');
      });
      if (over) await unlink(target);
      files.push({ incoming, content: over ? null : temporaryContent(target), size });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw multipartError(error, maxFileSizeBytes);
  }
  if (files.length === 0) {
    throw noFile(uploadMessages.noFileSent, uploadMessages.chooseFilesOrZip);
  }
  const only = files[0];
  if (files.length === 1 && only?.content && extensionOfName(only.incoming) === 'zip') {
    const zipFile = await only.content.file();
    return { ...(await unpack(zipFile, dir, maxFiles, maxFileSizeBytes)), fields: upload.fields };
  }
  return { files, fields: upload.fields, close: async () => {} };
}

/**
 * The files of one .zip, after the game zip upload's checks on all its entries (nothing inflated yet): each entry
 * is read whole from the zip when its row needs it (entryBytes, decision 0061), so its bytes are read once, from
 * memory, and never written to the temporary folder unless ffmpeg needs a file of it (a sound). A broken or lying
 * entry is then its row's refusal (invalid_zip, naming it), not the whole batch's.
 */
async function unpack(
  zipFile: string,
  dir: string,
  maxFiles: number,
  maxFileSizeBytes: number,
): Promise<Omit<Received, 'fields'>> {
  if ((await stat(zipFile)).size > limits.zipUpload.maxZipBytes)
    throw zipBomb(`The .zip is larger than ${limits.zipUpload.maxZipBytes / 1024 ** 3} GB.`);
  const zip = await openZip(zipFile);
  let data: FileHandle | undefined;
  try {
    const entries = (await readEntries(zip, maxFiles, () => tooManyFiles(maxFiles))).map((entry) => ({
      ...entry,
      path: entry.name.replace(/^\/+/, ''),
    }));
    checkDeclared(entries, maxFileSizeBytes);
    // entryBytes refuses an entry that inflates past its declared size, so the declared total bounds what the
    // batch reads (and what its sounds write to the temporary folder).
    if (entries.reduce((total, { entry }) => total + entry.uncompressedSize, 0) > maxBatchBytes)
      throw zipBomb(batchTooLarge);
    const handle = await open(zipFile, 'r').catch((error: unknown) => {
      throw storageFault(error, 'temp');
    });
    data = handle;
    const files = entries.map(({ entry, path }, index) => ({
      incoming: path,
      content: zipEntryContent(() => entryBytes(zip, handle, entry, path), join(dir, `zip-${index}`)),
      size: entry.uncompressedSize,
    }));
    return {
      files,
      close: async () => {
        zip.close();
        await handle.close();
      },
    };
  } catch (error) {
    zip.close();
    await data?.close();
    throw error;
  }
}

/** An entry of the batch's .zip, read whole when asked; written to `temporary` the first time a file of it is. */
function zipEntryContent(bytes: () => Promise<Buffer>, temporary: string): IncomingContent {
  let written: Promise<string> | undefined;
  const write = async () => {
    const content = await bytes();
    await writeFile(temporary, content).catch((error: unknown) => {
      // The temporary folder's fault (full) is the server's: 507, as the game zip upload answers.
      throw storageFault(error, 'temp');
    });
    return temporary;
  };
  return {
    bytes,
    file: () => (written ??= write()),
    beside: (suffix) => `${temporary}.${suffix}`,
  };
}
