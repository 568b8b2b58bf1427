import type { Generated } from 'kysely';

/**
 * The tables of SPEC §3. Columns are camelCase like the API fields. Flags are stored as 0/1 integers on
 * both databases (SQLite has no boolean type; one representation keeps the search query and the
 * repositories dialect-free). Timestamps are ISO strings on SQLite and timestamptz on PostgreSQL.
 */
export type Flag = 0 | 1;
export type Timestamp = string | Date;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phone: string;
  roleTypeId: number;
  activated: Flag;
  emailVerified: Flag;
  dataProtectionRegulationVersion: number;
  /** Session and play tokens carry it; adding one ends every earlier token of the user (migration 0003). */
  tokenVersion: Generated<number>;
  /** How the inbox's events reach the user by mail: 'each', 'digest' or 'never' (migration 0016). */
  inboxMail: Generated<string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface GamesTable {
  id: Generated<number>;
  name: string;
  description: string;
  width: number;
  height: number;
  gameStatusTypeId: number;
  /** Why the last generation failed (status 4). */
  statusReason: string | null;
  isActive: Flag;
  imagePath: string;
  rootPath: string;
  /** When the files last changed, and when they were last generated: GET /admin/update compares them. */
  filesChangedAt: Timestamp | null;
  generatedAt: Timestamp | null;
  /** While Generating: images done, and of how many (null until the job has counted them). */
  generationDone: number | null;
  generationTotal: number | null;
  /** The engine its files were built with (a name from the contract's gameEngines), null when none was recognised. */
  engine: string | null;
  /** The play settings (migration 0006, decision 0022): the admin's choice, what detection decided and why. */
  precompressed: Generated<string>;
  precompressedDecided: Generated<string>;
  precompressedReason: Generated<string>;
  isolated: Generated<string>;
  isolatedDecided: Generated<Flag>;
  isolatedReason: Generated<string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface GameFilesTable {
  id: Generated<number>;
  gameId: number;
  /** Stable public id of the file within its game; kept when the admin replaces the content. */
  fileId: number;
  path: string;
  isStartFile: Flag;
  isSplash: Flag;
  width: number | null;
  height: number | null;
  size: number;
  contentType: string;
  storageKey: string;
  /**
   * The key this file's skeleton and watermarked copies are named after (lib/images/copy-keys.ts variantKey; migration 0009,
   * decision 0024): the play origin serves those; null: none yet. The content's own key when its copies are first
   * made, a new one each time they are made again (Gen. with another product name: decision 0046), so no server or
   * browser keeps the previous bytes under it.
   */
  copiesKey: string | null;
  /** The content (storage key) the copies were made from (migration 0017): they are current when it is storageKey. */
  copiesOf: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Which files plays load (migration 0008, decision 0023): per game file, never per person. */
export interface FileUsageTable {
  gameId: number;
  /** The game file's public id (gameFiles.fileId). */
  fileId: number;
  /** Requests the play origin answered for the file, in any view. */
  loads: number;
  /** Those that came within the start window of their play. */
  startLoads: number;
  firstSeenAt: Timestamp;
}

export interface HelperFilesTable {
  id: Generated<number>;
  gameId: number;
  path: string;
  size: number;
  contentType: string;
  storageKey: string;
  createdAt: Timestamp;
}

export interface UserGamesTable {
  id: Generated<number>;
  userId: number;
  gameId: number;
  userGameTypeId: number;
  jobPrice: number;
  isActive: Flag;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface GameVersionsTable {
  id: Generated<number>;
  name: string;
  description: string;
  gameId: number;
  userGamesId: number;
  userId: number;
  isLocked: Flag;
  isActive: Flag;
  gameVersionStatusId: number;
  finishedAt: Timestamp | null;
  rootPath: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** The verdict since the last finish (migration 0014): 'approved' | 'changes_requested', or null. */
  verdict: Generated<string | null>;
  verdictNote: Generated<string | null>;
  verdictAt: Generated<Timestamp | null>;
  verdictBy: Generated<number | null>;
}

export interface VersionFilesTable {
  id: Generated<number>;
  gameVersionId: number;
  fileId: number;
  path: string;
  width: number | null;
  height: number | null;
  size: number;
  contentType: string;
  storageKey: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Per sheet a version has replaced frames in: its frame set's revision and the composed one's. */
export interface VersionSheetsTable {
  gameVersionId: number;
  fileId: number;
  revision: number;
  composedRevision: number;
  /** The artist's whole-sheet upload the frames are drawn onto; null: the game's original sheet. */
  baseKey: string | null;
  /** The whole-sheet upload's size in bytes (null with no baseKey). */
  baseSize: number | null;
  /**
   * The composed sheet's marked rendition (decision 0049): the frames on the game's watermarked copy, served in the
   * version view to whoever may not see originals. Null: none (a base of the artist's own, or copies not made).
   */
  markedKey: string | null;
  /** The game file's copiesKey the marked rendition was drawn on; another than the file's now: stale. */
  markedFrom: string | null;
}

/** A version's replacement of one atlas frame, as uploaded (the frame's source size). */
export interface VersionFramesTable {
  gameVersionId: number;
  fileId: number;
  frame: string;
  storageKey: string;
  width: number;
  height: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One replacement a version's file got (migration 0015, decision 0034), with a stored copy of its own. */
export interface VersionFileHistoryTable {
  id: Generated<number>;
  versionId: number;
  fileId: number;
  storageKey: string;
  /** The version file's key the entry copies (the current entry's is the version file's storageKey). */
  fileKey: string;
  size: number;
  width: number | null;
  height: number | null;
  contentType: string;
  authorId: number | null;
  how: string;
  restoredFrom: number | null;
  createdAt: Timestamp;
}

/** A uniform grid declared on a game image (migration 0012): one per image, gone with the file. */
export interface AtlasGridsTable {
  gameId: number;
  fileId: number;
  frameWidth: number;
  frameHeight: number;
  margin: number;
  spacing: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One inbox event for one recipient (migration 0013); `kind` is one of the contract's inboxEventKinds. */
export interface InboxEventsTable {
  id: Generated<number>;
  userId: number;
  kind: string;
  actorId: number | null;
  gameId: number | null;
  userGameId: number | null;
  versionId: number | null;
  fileId: number | null;
  noteId: number | null;
  text: string;
  createdAt: Timestamp;
  readAt: Timestamp | null;
  /** The mail side's decision: null (not yet), 'sent', 'digest' (waits for the daily digest), 'digested', 'skipped'. */
  mailState: string | null;
}

/** A mail waiting to be sent (migration 0016, decision 0035); deleted once sent. */
export interface MailOutboxTable {
  id: Generated<number>;
  toAddress: string;
  subject: string;
  text: string;
  html: string;
  attempts: Generated<number>;
  nextAttemptAt: Timestamp;
  /** While a worker sends it: until when the claim holds (then another server may try). */
  claimedUntil: Timestamp | null;
  lastError: string | null;
  createdAt: Timestamp;
  /** 0 transactional (sent first), 1 notification (migration 0019, decision 0044). */
  priority: Generated<number>;
  /** A notification row: the user it is for; their new inbox events join it while it waits. */
  recipientId: number | null;
  /** A notification row: the ids of the inbox events it tells of, as a JSON array. */
  eventIds: string | null;
}

/** A mailed link's token (migration 0016): its SHA-256 only; single use, time-limited. */
export interface UserTokensTable {
  id: Generated<number>;
  userId: number;
  /** 'verify-email' or 'reset-password'. */
  purpose: string;
  tokenHash: string;
  /** The address it was mailed to: a verification only counts while the account still has it. */
  email: string;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  createdAt: Timestamp;
  /** The account's token version when the link was made (migration 0018): a reset link ends when it changes. */
  tokenVersion: Generated<number>;
}

/** A note on a version, one of its files or an atlas frame (migration 0014). */
export interface NotesTable {
  id: Generated<number>;
  versionId: number;
  /** The game file's public id (gameFiles.fileId), or null for the version as a whole. */
  fileId: number | null;
  frame: string | null;
  replyTo: number | null;
  authorId: number;
  text: string;
  resolvedAt: Timestamp | null;
  resolvedBy: number | null;
  /** 'marked' | 'answered' | 'replaced' (null while open). */
  resolvedHow: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface Database {
  users: UsersTable;
  games: GamesTable;
  gameFiles: GameFilesTable;
  fileUsage: FileUsageTable;
  helperFiles: HelperFilesTable;
  userGames: UserGamesTable;
  gameVersions: GameVersionsTable;
  versionFiles: VersionFilesTable;
  versionSheets: VersionSheetsTable;
  versionFrames: VersionFramesTable;
  atlasGrids: AtlasGridsTable;
  inboxEvents: InboxEventsTable;
  versionFileHistory: VersionFileHistoryTable;
  mailOutbox: MailOutboxTable;
  userTokens: UserTokensTable;
  notes: NotesTable;
}
