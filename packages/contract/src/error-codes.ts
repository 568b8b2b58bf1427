// No zod here: the web app's landing page names error codes (apps/web/src/lib/failure-titles.ts) and loads
// no schema library.

/**
 * Error codes the server puts in error.code: every code an answer of the app carries is one of these (the
 * server's AppError takes no other). Only the framework's own refusals before a route runs (a JSON body over
 * the size limit, an unknown content type) keep the framework's code (FST_ERR_...).
 */
export const errorCodes = {
  validationFailed: 'VALIDATION_FAILED',
  /** 400: a value the request's schema let through but the database cannot hold (an id past 2^31), and the like. */
  badRequest: 'BAD_REQUEST',
  /** 400: a JSON body that is not JSON (or holds a key like __proto__). */
  invalidJson: 'INVALID_JSON',
  invalidFilter: 'INVALID_FILTER',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  xsrf: 'XSRF_TOKEN_MISMATCH',
  rateLimited: 'RATE_LIMITED',
  ownRow: 'OWN_ACCOUNT',
  accountDisabled: 'ACCOUNT_DISABLED',
  invalidCredentials: 'INVALID_CREDENTIALS',
  emailExists: 'EMAIL_EXISTS',
  /** 409: the change would leave no active administrator (suspend, delete or demote the last one). */
  lastAdmin: 'LAST_ADMIN',
  usernameExists: 'USERNAME_EXISTS',
  /** 409: the user-game has its limits.versionsPerUserGame versions already (VER-2). */
  versionLimit: 'VERSION_LIMIT',
  /** 409: the user already has this game with this job type (one assignment per user, game and job type). */
  assignmentExists: 'ASSIGNMENT_EXISTS',
  /** 409: the game is not Ready: its play links cannot be made yet (admins read "generate", artists "being prepared"). */
  gameNotReady: 'GAME_NOT_READY',
  /** 409: a Ready game none of whose files is marked as its start file: it has no play link. */
  noIndexFile: 'NO_INDEX_FILE',
  /** 423: a locked version: its artist changes nothing of it, and nobody its files (version-rules.ts). */
  versionLocked: 'VERSION_LOCKED',
  /** 423: a version the reviewer disabled is read-only for its artist (no rename, delete, upload, restore, finish). */
  versionDisabled: 'VERSION_DISABLED',
  /** 409: a verdict on a version that is not Finished: the artist has not finished it (again) yet. */
  versionNotFinished: 'VERSION_NOT_FINISHED',
  /**
   * 409: the version has a verdict since its last finish already, given by the reviewer the message names
   * (two reviewers at once: one wins); send `replace: true` to change it.
   */
  verdictExists: 'VERDICT_EXISTS',
  /** 416: the play origin was asked for a byte range that lies outside the file (Content-Range names its size). */
  rangeNotSatisfiable: 'RANGE_NOT_SATISFIABLE',
  /** 503: the database cannot be reached (restarting, failing over); the same request works once it is back. */
  databaseUnavailable: 'DATABASE_UNAVAILABLE',
  /**
   * 507: a volume the server writes to (DATA_DIR, the temporary folder, the database's) is full or below its
   * free-space threshold (MIN_FREE_SPACE_*): uploads, zip uploads and generation are refused until space is freed;
   * reads, deletes and other database writes still work.
   */
  storageFull: 'STORAGE_FULL',
  /** 503: the file storage (the object store, or the local disk failing) cannot be used; the same request works once it is back. */
  storageUnavailable: 'STORAGE_UNAVAILABLE',
  /**
   * 503: this server already works on as many requests of the kind as it takes at once, with as many waiting
   * (limits.versionBatch); the same request works later: error.retryAfter and Retry-After say when to try again.
   */
  serverBusy: 'SERVER_BUSY',
  /** 413: a file of an upload is over the per-file limit (MAX_FILE_SIZE_MB); nothing of the upload is stored. */
  fileTooLarge: 'FILE_TOO_LARGE',
  /** 413: more files in one upload than the limit allows. */
  tooManyFiles: 'TOO_MANY_FILES',
  /**
   * 413: a multipart body over the parser's own count limits (parts, files or fields of one body); the codes are
   * the parser's (@fastify/multipart).
   */
  multipartPartsLimit: 'FST_PARTS_LIMIT',
  multipartFilesLimit: 'FST_FILES_LIMIT',
  multipartFieldsLimit: 'FST_FIELDS_LIMIT',
  /** 415: an upload that is not multipart/form-data. */
  notMultipart: 'NOT_MULTIPART',
  /** 400: a multipart body that cannot be read (no boundary, cut short, a part without a name). */
  malformedMultipart: 'MALFORMED_MULTIPART',
  /** 408: an upload had not recorded its files 50 minutes after it began; nothing of it is stored. */
  uploadTooSlow: 'UPLOAD_TOO_SLOW',
  /** 422: a zip upload that is not a readable .zip (not a zip, cut short, encrypted or an unknown compression). */
  invalidZip: 'INVALID_ZIP',
  /** 413: a zip upload that unpacks to too many bytes or packs an entry too densely (a zip bomb); nothing is stored. */
  zipBomb: 'ZIP_BOMB',
  /** 404: a mail feature (forgot password, "Send again") on a server without SMTP_URL. */
  mailOff: 'MAIL_OFF',
  /** 400: a mailed link's token that was never issued (or mistyped). */
  tokenInvalid: 'TOKEN_INVALID',
  /** 410: a mailed link used before (each works once). */
  tokenUsed: 'TOKEN_USED',
  /** 410: a mailed link past its time. */
  tokenExpired: 'TOKEN_EXPIRED',
} as const;

/** One of the error codes (errorCodes' values). */
export type ErrorCode = (typeof errorCodes)[keyof typeof errorCodes];
