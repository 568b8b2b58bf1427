import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { errorCodes, uploadMessages } from '@reskin/contract';
import { AppError, badRequest } from './errors';

// Reading the multipart bodies of the upload routes (@fastify/multipart, busboy underneath). Two things the
// library leaves to its user: a file over `limits.fileSize` is cut short and then *ends normally* (only its
// `truncated` flag and a 'limit' event tell), and a body it cannot parse fails with plain Errors that would
// otherwise answer 500.

/** 413 for one file over the per-file limit, naming the file and the limit. */
export function fileTooLarge(name: string | undefined, maxFileSizeBytes: number): AppError {
  const message = uploadMessages.fileTooLarge(name, maxFileSizeBytes);
  return new AppError(413, 'PayloadTooLargeError', message, errorCodes.fileTooLarge, [
    { path: '/file', code: 'too_large', message },
  ]);
}

/** 413 for a multi-file upload declared larger than its most files at the per-file limit each could be. */
export function uploadTooLarge(files: number, maxFileSizeBytes: number): AppError {
  const message = uploadMessages.uploadTooLarge(files, maxFileSizeBytes);
  return new AppError(413, 'PayloadTooLargeError', message, errorCodes.fileTooLarge, [
    { path: '/file', code: 'too_large', message },
  ]);
}

/** 400 for a body that is not well-formed multipart, with the parser's reason. */
export function malformedMultipart(reason: string): AppError {
  return badRequest(`The multipart body is malformed: ${reason}`, errorCodes.malformedMultipart);
}

/** 415 for a request that is not multipart/form-data at all. */
export function notMultipart(): AppError {
  return new AppError(
    415,
    'UnsupportedMediaTypeError',
    'Send the upload as multipart/form-data.',
    errorCodes.notMultipart,
  );
}

/**
 * The error answer for an error of the multipart parser (request.parts(), request.file(), a file part's
 * stream). Only errors that come from reading the body may be passed here: anything unknown is taken as a body
 * the parser could not read (400).
 */
export function multipartError(error: unknown, maxFileSizeBytes: number): AppError {
  if (error instanceof AppError) return error;
  const { code, statusCode, message, part } = error as {
    code?: string;
    statusCode?: number;
    message?: string;
    part?: { filename?: string };
  };
  switch (code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return notMultipart();
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(part?.filename, maxFileSizeBytes);
    case 'FST_PROTO_VIOLATION':
      return malformedMultipart('a part is named after an object property.');
    case 'FST_MP_PREMATURE_CLOSE':
      return malformedMultipart('the request ended before the body did.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return malformedMultipart('a field declared as JSON is not valid JSON.');
  }
  // The library's own 4xx (the parts and fields limits) keep their status and say what they are.
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new AppError(
      statusCode,
      statusCode === 413 ? 'PayloadTooLargeError' : 'BadRequestError',
      message ?? 'The upload was refused.',
      code ?? 'BAD_REQUEST',
    );
  }
  // busboy: "Multipart: Boundary not found", "Unexpected end of form", "Part terminated early", "Malformed part
  // header", or the connection's own "aborted".
  return malformedMultipart(`${(message ?? 'unreadable').replace(/^Multipart: /, '').replace(/\.?$/, '.')}`);
}

/** 400 unless every part of the body has a name (Content-Disposition: form-data; name="..."). */
export function assertNamed(part: Multipart): void {
  if (typeof part.fieldname === 'string' && part.fieldname !== '') return;
  if (part.type === 'file') part.file.resume();
  throw malformedMultipart(
    part.type === 'file'
      ? `the file part ${part.filename ? `"${part.filename}" ` : ''}has no name.`
      : 'a field has no name.',
  );
}

/**
 * The first file part of the body (the fields before it are read and dropped), read with `maxFileSizeBytes`
 * as its limit, or undefined when there is none. Every part up to it must have a name; a body that cannot be
 * read is a 400.
 */
export async function firstFilePart(
  request: FastifyRequest,
  maxFileSizeBytes: number,
): Promise<MultipartFile | undefined> {
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileSizeBytes } })) {
      assertNamed(part);
      if (part.type === 'file') return part;
    }
  } catch (error) {
    throw multipartError(error, maxFileSizeBytes);
  }
  return undefined;
}

/**
 * The content of a file part, as a stream that fails with a 413 (fileTooLarge) at its end when the part was
 * over the per-file limit, and with a 400 when the body breaks off inside it. Whatever the stream is piped
 * into (Storage.put) therefore fails instead of keeping a cut file. A part over the limit is still read to
 * its end (busboy drops the bytes past the limit), so a single-file request is answered after its whole body.
 */
export function fileContent(
  part: MultipartFile,
  name: string | undefined,
  maxFileSizeBytes: number,
): Readable {
  const source = part.file;
  const content = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk);
    },
    // busboy sets `truncated` before it ends the part, so it is final here.
    flush(callback) {
      callback(source.truncated ? fileTooLarge(name, maxFileSizeBytes) : null);
    },
  });
  const broken = () =>
    source.errored
      ? multipartError(source.errored, maxFileSizeBytes)
      : malformedMultipart('the body ended inside a file.');
  // The parser may have failed before the part was handed over (the whole body had already arrived).
  if (source.destroyed && !source.readableEnded) {
    content.on('error', () => {});
    content.destroy(broken());
    return content;
  }
  source.on('error', (error) => content.destroy(multipartError(error, maxFileSizeBytes)));
  source.on('close', () => {
    if (!source.readableEnded) content.destroy(broken());
  });
  // A content that is only drained (resume()) after a refusal has no reader for its error: without this
  // listener that error would be thrown. Readers (pipeline, for await) see the error all the same.
  content.on('error', () => {});
  return source.pipe(content);
}

/**
 * Room for what a multipart body holds besides the bytes of its files: per file part its headers and the fields
 * sent with it (fullPath and filename, each at most 4 KB: the parser's `fieldSize`), and for the body the
 * boundaries and a few option fields. Generous: it only has to keep a body that could be accepted from being
 * refused by its headers.
 */
const partOverheadBytes = 16 * 1024;
const bodyOverheadBytes = 64 * 1024;

/** The largest multipart body that can hold `files` files of at most `fileBytes` each (with their fields). */
export function maxMultipartBytes(files: number, fileBytes: number): number {
  return files * (fileBytes + partOverheadBytes) + bodyOverheadBytes;
}

/**
 * A preValidation hook for an upload route (it runs after the route's onRequest access check, before anything
 * reads the body: the multipart parser reads it only when the handler asks for its parts): a request whose
 * Content-Length is over `maxBodyBytes`, a body the route can never accept, is answered with `refusal()` (a 413)
 * at once instead of after its bytes have been sent and read (a 306 MB zip was refused after all of
 * it had arrived). The answer closes the connection, so the unread body is neither read nor waited for.
 */
export function refuseDeclaredBodyOver(maxBodyBytes: number, refusal: () => AppError) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const declared = Number(request.headers['content-length']);
    if (!Number.isFinite(declared) || declared <= maxBodyBytes) return;
    reply.header('connection', 'close');
    throw refusal();
  };
}

/**
 * An onResponse hook for the upload routes: a refusal is answered as soon as it is known, often before the
 * client has sent the rest of the body (the files after an oversized one, say). Nobody reads that rest, so
 * the connection would stay open with the client still sending; it is read and dropped instead, and the
 * connection ends (or is reused) normally.
 */
export async function discardUnreadBody(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed) return;
  // Refused by its declared length (refuseDeclaredBodyOver): Node closes the connection after the answer.
  if (reply.getHeader('connection') === 'close') return;
  raw.unpipe();
  raw.resume();
}

/** A byte limit for people: whole megabytes or kilobytes (1024-based, as MAX_FILE_SIZE_MB is), else bytes. */
