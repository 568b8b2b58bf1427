import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { errorCodes, uploadMessages } from '@reskin/contract';
import { z } from 'zod';
import { AppError, badRequest, noFile, requestInvalid, withDetail } from './errors';

// Reading the multipart bodies of the upload routes (@fastify/multipart, busboy underneath). Two things the
// library leaves to its user: a file over `limits.fileSize` is cut short and then *ends normally* (only its
// `truncated` flag and a 'limit' event tell), and a body it cannot parse fails with plain Errors that would
// otherwise answer 500.

/** 413 for one file over the per-file limit, naming the file and the limit. */
export function fileTooLarge(name: string | undefined, maxFileSizeBytes: number): AppError {
  const message = uploadMessages.fileTooLarge(name, maxFileSizeBytes);
  return withDetail(413, errorCodes.fileTooLarge, message, '/file', 'too_large');
}

/** 413 for a multi-file upload declared larger than its most files at the per-file limit each could be. */
export function uploadTooLarge(files: number, maxFileSizeBytes: number): AppError {
  const message = uploadMessages.uploadTooLarge(files, maxFileSizeBytes);
  return withDetail(413, errorCodes.fileTooLarge, message, '/file', 'too_large');
}

/** 400 for a body that is not well-formed multipart, with the parser's reason. */
export function malformedMultipart(reason: string): AppError {
  return badRequest(`The multipart body is malformed: ${reason}`, errorCodes.malformedMultipart);
}

/** 415 for a request that is not multipart/form-data at all. */
export function notMultipart(): AppError {
  return new AppError(415, errorCodes.notMultipart, 'Send the upload as multipart/form-data.');
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
    // The parser's own count limits keep their status (413) and their code, which the contract lists.
    case errorCodes.multipartPartsLimit:
    case errorCodes.multipartFilesLimit:
    case errorCodes.multipartFieldsLimit:
      return new AppError(statusCode ?? 413, code, message ?? 'The upload was refused.');
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
  // Another 4xx of the library keeps its status and says what it is.
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new AppError(statusCode, errorCodes.badRequest, message ?? 'The upload was refused.');
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

/** A multipart body's parts schema in the contract: its `file` part and the fields sent before it. */
type PartsSchema = z.ZodObject<{ file: z.ZodType }>;

/** What readUpload read: the file part, its content, and the fields before it as the route's schema parsed them. */
export interface Upload<S extends PartsSchema> {
  file: MultipartFile;
  /** The file's bytes: they fail with a 413 past the limit and a 400 when the body breaks off (fileContent). */
  content: Readable;
  fields: Omit<z.output<S>, 'file'>;
}

/**
 * The first file part of an upload and the fields sent before it, parsed by the route's contract schema (its
 * multipartBody) without its `file` (decision 0057): a field that breaks it is answered as a JSON body that
 * breaks its schema is (422 VALIDATION_FAILED, a detail per rule), a body without a file part by `missing()`
 * (422 "No file was sent." unless the route says otherwise). The file is read with `maxFileSizeBytes` as its
 * limit; every part up to it must have a name, and a body that cannot be read is a 400.
 */
export async function readUpload<S extends PartsSchema>(
  request: FastifyRequest,
  schema: S,
  {
    maxFileSizeBytes,
    missing = () => noFile(uploadMessages.noFileSent, uploadMessages.chooseFile),
  }: { maxFileSizeBytes: number; missing?: () => AppError },
): Promise<Upload<S>> {
  const raw: Record<string, unknown> = {};
  let file: MultipartFile | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxFileSizeBytes } })) {
      assertNamed(part);
      if (part.type === 'file') {
        file = part;
        break;
      }
      // A field sent twice is a list, which only a schema that takes one accepts.
      const earlier = raw[part.fieldname];
      raw[part.fieldname] = earlier === undefined ? part.value : [earlier, part.value].flat();
    }
  } catch (error) {
    throw multipartError(error, maxFileSizeBytes);
  }
  if (!file) throw missing();
  // The schema without its file: zod cannot name that type for a generic schema, so it is given here.
  const fieldsSchema = schema.omit({ file: true }) as unknown as z.ZodType<Omit<z.output<S>, 'file'>>;
  const parsed = fieldsSchema.safeParse(raw);
  if (!parsed.success) {
    file.file.resume();
    throw requestInvalid(
      'body',
      parsed.error.issues.map((issue) => ({
        path: `/${issue.path.join('/')}`,
        // A field not sent at all is `required`, as a missing file is; any other break keeps zod's code.
        code: issue.path.length === 1 && raw[String(issue.path[0])] === undefined ? 'required' : issue.code,
        message: issue.message,
      })),
    );
  }
  return {
    file,
    content: fileContent(file, file.filename, maxFileSizeBytes),
    fields: parsed.data,
  };
}

/** One value of a field: a field sent before each file is declared as a list in its parts schema. */
type FieldValue<T> = T extends readonly (infer Item)[] ? Item : T;
/** The fields of a parts schema, each with one value. */
export type PartFields<S extends PartsSchema> = {
  [K in Exclude<keyof z.output<S>, 'file'>]?: FieldValue<z.output<S>[K]>;
};

/** The rule for one value of a field: the schema's entry (its items, for a list), or none for a name it lacks. */
function ruleOfField(schema: PartsSchema, name: string): z.ZodType | undefined {
  if (name === 'file' || !Object.hasOwn(schema.shape, name)) return undefined;
  let rule = (schema.shape as Record<string, z.ZodType>)[name];
  if (rule instanceof z.ZodOptional) rule = rule.unwrap() as z.ZodType;
  return rule instanceof z.ZodArray ? (rule.element as z.ZodType) : rule;
}

/** What streamUpload reads: the file parts one by one, and every field of the body. */
export interface StreamedUpload<S extends PartsSchema> {
  /** Each file part with the fields sent since the file before it; each must be consumed before the next. */
  files: AsyncGenerator<{ part: MultipartFile; fields: PartFields<S> }>;
  /** Every field the schema names, as parsed (a repeated one: its last value); complete once `files` is done. */
  fields: PartFields<S>;
}

/**
 * A multipart body of many files read as a stream (nothing buffered): the fields are parsed by the route's parts
 * schema in the contract as they come, each value by its entry (a field sent before each file is a list there,
 * each value checked by its items); a field the schema does not name is ignored. A value that breaks its rule is
 * `badField` (422 VALIDATION_FAILED naming the field unless the route answers otherwise). Every part must have a
 * name, a body that cannot be read is a 400, and more files than `limits.files` is `tooManyFiles` when given.
 */
export function streamUpload<S extends PartsSchema>(
  request: FastifyRequest,
  schema: S,
  options: {
    /** The per-file limit errors name (the parser's own `limits.fileSize` may be larger, for a .zip). */
    maxFileSizeBytes: number;
    limits?: NonNullable<Parameters<FastifyRequest['parts']>[0]>['limits'];
    badField?: (name: string, issue: z.core.$ZodIssue) => AppError;
    tooManyFiles?: () => AppError;
  },
): StreamedUpload<S> {
  const { maxFileSizeBytes, limits, tooManyFiles } = options;
  const badField =
    options.badField ??
    ((name, issue) =>
      requestInvalid('body', [{ path: `/${name}`, code: issue.code, message: issue.message }]));
  const fields: Record<string, unknown> = {};
  async function* files() {
    let sinceLastFile: Record<string, unknown> = {};
    try {
      for await (const part of request.parts(limits && { limits })) {
        assertNamed(part);
        if (part.type === 'file') {
          yield { part, fields: sinceLastFile as PartFields<S> };
          sinceLastFile = {};
          continue;
        }
        const rule = ruleOfField(schema, part.fieldname);
        if (!rule) continue;
        const parsed = rule.safeParse(part.value);
        if (!parsed.success) throw badField(part.fieldname, parsed.error.issues[0]!);
        sinceLastFile[part.fieldname] = parsed.data;
        fields[part.fieldname] = parsed.data;
      }
    } catch (error) {
      if (tooManyFiles && (error as { code?: string }).code === 'FST_FILES_LIMIT') throw tooManyFiles();
      throw multipartError(error, maxFileSizeBytes);
    }
  }
  return { files: files(), fields: fields as PartFields<S> };
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
