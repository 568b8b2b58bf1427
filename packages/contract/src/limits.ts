/** Business constants and limits of SPEC §9 (and DESIGN.md where the spec is silent). */
export const limits = {
  username: { min: 3, max: 30 },
  email: { min: 3, max: 100 },
  password: { min: 8, /** server cap so no request hashes megabytes */ max: 200 },
  personName: { min: 3, /** not enforced by the spec's form; a sane server cap */ max: 100 },
  phoneDigits: 10,
  dataProtectionRegulationVersion: 1,
  game: {
    minWidth: 300,
    minHeight: 400,
    maxWidth: 10000,
    maxHeight: 10000,
    nameMax: 250,
    descriptionMax: 2000,
  },
  versionsPerUserGame: 6,
  versionName: { min: 2, max: 250 },
  versionDescription: { min: 2, max: 500 },
  versionMultiUploadFiles: 50,
  /**
   * History of a version's file (decision 0034): the entries kept per file and version by default (the
   * server reads VERSION_HISTORY_LIMIT), oldest dropped first, and the most it may be set to.
   */
  versionHistory: { defaultPerFile: 10, maxPerFile: 100 },
  adminUploadFiles: 1000,
  /**
   * How the admin's upload screen splits a game of any size into requests of the folder route (
   * decision 0039): at most `files` files (within adminUploadFiles) and `bytes` bytes of files per request, so
   * a request stays under the proxy's body limit (docs/operations.md: client_max_body_size 64m) and a refused
   * or broken request costs little to send again; a single file over `bytes` (up to the per-file limit) goes
   * alone. `concurrent` requests are in flight at once.
   */
  uploadBatch: { files: 250, bytes: 32 * 1024 * 1024, concurrent: 2 },
  /** Largest image (width x height) the server decodes; bigger images are refused. */
  maxImagePixels: 40_000_000,
  /**
   * The safety check of an artist's SVG (decision 0019) reads the whole document with an XML parser: a larger
   * file, more elements or deeper nesting is refused before or while it is read, so one upload cannot hold the
   * server's thread. Drawings exported from editors stay far below (the largest fixture has a few thousand).
   */
  svgCheck: { maxChars: 8 * 1024 * 1024, maxElements: 100_000, maxDepth: 256 },
  /**
   * How fast one account may post notes (answers included) and press "I Finished My Game" (decision 0044): a
   * `burst` beyond the steady `perMinute`, the burst coming back `burstMinutes` after its first use; beyond both,
   * 429 RATE_LIMITED with Retry-After (throttleMessages). The server reads NOTES_PER_MINUTE, NOTES_BURST,
   * FINISHES_PER_MINUTE and FINISHES_BURST (tests that post more raise them).
   */
  posting: { notes: { perMinute: 10, burst: 30 }, finishes: { perMinute: 3, burst: 10 }, burstMinutes: 10 },
  /** Longest path of a game file inside its game. */
  gameFilePathMax: 500,
  /** Default per-file upload limit; the server reads MAX_FILE_SIZE_MB. */
  defaultMaxFileSizeMb: 50,
  /**
   * Zip upload of a game (POST /game/upload-zip/{gameId}): the largest .zip accepted, and against zip bombs the
   * most bytes all its entries may unpack to and the highest unpacked/packed ratio of an entry (checked on the
   * declared sizes and again on the bytes counted while inflating). Game files of ordinary content (scripts,
   * JSON maps, images, sounds) stay far below that ratio; the ratio is not applied to entries under
   * `ratioMinBytes`, whose worst case the total limit already bounds.
   */
  zipUpload: {
    maxZipBytes: 1024 * 1024 * 1024,
    maxUnpackedBytes: 2 * 1024 * 1024 * 1024,
    maxCompressionRatio: 200,
    ratioMinBytes: 1024 * 1024,
  },
  /**
   * Sound conversion (decision 0029): each probe, loudness measurement or conversion runs in a worker
   * thread with the WebAssembly ffmpeg, at most one per core at once; one that runs longer than
   * `timeLimitSeconds` is stopped, and ffmpeg's heap cannot grow past `memoryMb` (the file itself and the result
   * are held beside it, each within the per-file limit). The workbench warns when a replacement's duration differs
   * from the original's by more than `durationWarningRatio`. A sound longer than `maxDurationSeconds` (by its
   * header, read before anything is decoded) is refused, as a single upload and as a batch row (decision 0045):
   * a 14-hour silent MP3 of a few MB would hold a worker for its whole decoding.
   */
  audioConversion: {
    timeLimitSeconds: 120,
    memoryMb: 256,
    durationWarningRatio: 0.1,
    maxDurationSeconds: 15 * 60,
  },
  /**
   * Replace from a folder or a zip (decision 0045): the most bytes one batch may write to the server's
   * temporary folder, counted on its received files and again on what a .zip of them inflates to (its entries'
   * sizes, checked before anything is inflated), and how many batches one app server receives, unpacks and
   * applies at once (`concurrent`). More wait their turn, served round-robin by user, up to `maxWaiting`; beyond
   * that a batch is refused with 503 SERVER_BUSY and Retry-After `retryAfterSeconds`.
   */
  versionBatch: { maxBytes: 512 * 1024 * 1024, concurrent: 2, maxWaiting: 16, retryAfterSeconds: 10 },
  typeaheadDebounceMs: 500,
  searchPageSize: 10,
  /** LoopBack-style filter: default and maximum `limit`. */
  filterLimitDefault: 100,
  filterLimitMax: 100,
  /**
   * Size of a filter's `where`: the most values in one `inq`/`nin` list, the most conditions in the
   * whole where (every column condition and every operator on it, at any depth of `and`/`or`), and the longest
   * `like`/`nlike`/`ilike` pattern. Larger filters answer 400 INVALID_FILTER on both databases.
   */
  filterWhere: { listMax: 1000, conditionsMax: 200, patternMax: 500 },
  regenerationReloadMs: 2000,
  dropResetAfterSuccessMs: 5000,
  dropResetAfterErrorMs: 7000,
  playFrameExtraPx: 50,
  placeholderImage: { width: 360, height: 240 },
  /**
   * Small copies of the game's images (decision 0038), WebP, made by generation (and for a version's
   * replacement on first use): a preview for the workbench cards and My Games (at most `previewPixels` on the
   * longer side, about `previewBytes`), a thumbnail for the admin's tables (at most `thumbnailPixels`, about
   * `thumbnailBytes`). Served from the app's own origin and loaded lazily.
   */
  imagePreviews: { previewPixels: 480, previewBytes: 40_000, thumbnailPixels: 96, thumbnailBytes: 10_000 },
  cookieSizeWarningBytes: 4096,
  resizeThrottleMs: 50,
  sessionTokenHours: 12,
  /**
   * Failed attempts per account: a login's wrong password, counted by email, and a password change's
   * wrong current password, counted by user. After `freeFailures` failures within `windowSeconds` each further
   * failure makes the next attempt wait, doubling from `firstDelaySeconds` up to `maxDelaySeconds`: a growing delay,
   * never a lock the owner cannot outwait. A success clears the count.
   */
  failedAttempts: { freeFailures: 5, windowSeconds: 15 * 60, firstDelaySeconds: 1, maxDelaySeconds: 60 },
  /**
   * How long a device cookie lasts (decision 0021): a browser that logged into an account within this many
   * days is a known device of it, with a failure count of its own, not slowed by wrong passwords from elsewhere.
   */
  deviceCookieDays: 365,
  playTokenHours: 2,
  /**
   * The review loop: the most notes GET /game-versions/{id}/notes answers (the oldest first: a version
   * with more shows its first ones; none is ever dropped), and the most rows of GET /game-versions/to-review (the
   * oldest finishes first; its X-Total-Count says how many wait in all).
   */
  review: { notesListMax: 1000, toReviewMax: 500 },
  /**
   * A game's files, a version's files and their usage in pages (decision 0063): `firstPage` files are what a screen
   * asks for first (more than a screen of cards shows), the rest once that is on screen, at the latest
   * `restAtLatestMs` after the first page came; `limitMax` is the most one page may ask for (a game has fewer files).
   */
  filePages: { firstPage: 100, restAtLatestMs: 3000, limitMax: 100_000 },
  /** The inbox: events per page of GET /inbox (newest first; `?before=<id>` for the next page). */
  inbox: { pageSize: 50 },
  /**
   * Sprite sheet descriptors (decision 0028): files larger than `maxDescriptorBytes` are not read as descriptors; a
   * descriptor with more frames or pages, or a frame side beyond `maxFrameSide`, is refused (the image stays a
   * plain image), so a hostile file cannot make the server cut 100,000 frames. An XML descriptor (Starling, a
   * Cocos2d plist) nested deeper than `maxDepth` elements is refused while it is read (real ones nest 2 to 6).
   */
  atlas: {
    maxDescriptorBytes: 4 * 1024 * 1024,
    maxFrames: 10_000,
    maxPages: 64,
    maxFrameSide: 16_384,
    maxDepth: 64,
  },
} as const;

/** Toast settings of SPEC §9. */
export const toastSettings = {
  displayMs: 5000,
  extendedAfterHoverMs: 1000,
  animationMs: 300,
  position: 'top-right',
  newestOnTop: true,
  tapToDismiss: true,
  progressBar: false,
  closeButton: false,
} as const;

export const storageKeys = { token: 'token' } as const;

export const xsrf = { cookie: 'XSRF-TOKEN', header: 'X-XSRF-TOKEN' } as const;

/** The device cookie a successful login sets (HttpOnly, sent only to the login route; decision 0021). */
export const deviceCookie = { name: 'reskin-device', path: '/api/user/login' } as const;

/**
 * The response header of every list answer (users, games, user-games, versions, a game's files): how many rows
 * match the filter's `where` in all, whatever its limit and skip. A pager's total.
 */
export const totalCountHeader = 'X-Total-Count';
