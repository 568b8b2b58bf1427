import {
  limits,
  type Atlas,
  type BatchAnswer,
  type BatchFrame,
  type BatchMedia,
  type BatchOptions,
  type BatchRow,
  type BatchTwin,
  type BatchUsage,
  type ImageFormatName,
} from '@reskin/contract';
import type { ImageFitError } from '../../../lib/images/image-fit';
import type { AudioProbe } from '../audio-conversion';
import type { GameFileRow } from '../../games/game-files.repository';

/** One received file of a batch. */
export interface BatchIncomingFile {
  /** Its path as sent. */
  incoming: string;
  /** Its content, or null when it was over the per-file limit (and not kept). */
  content: IncomingContent | null;
  size: number;
}

/**
 * A received file's content, read when its row needs it: a part of a folder's body, written to a temporary file as
 * it arrived, or an entry of the batch's .zip, read whole from the zip in one read and one inflate when its lane
 * plans it (decision 0061's entryBytes), so a zip's images never pass through the temporary folder (decision 0060).
 */
export interface IncomingContent {
  /** All of it in memory; each call reads it again (a lane holds it only while it plans and stages its row). */
  bytes(): Promise<Buffer>;
  /** A temporary file of it (ffmpeg reads sounds from files): a zip's entry is written there on the first call. */
  file(): Promise<string>;
  /** A temporary path of its own for what its row makes of it (a fitted image). */
  beside(suffix: string): string;
}

/** The most bytes a batch's files may hold together, received or unpacked from its .zip. */
export const maxBatchBytes = limits.versionBatch.maxBytes;

/** A resolved row while planning: the match plus what the apply step needs. */
export interface PlannedRow {
  row: BatchRow;
  source: BatchIncomingFile;
  original: GameFileRow | null;
  /** For a frame row: the frame's full size. */
  frameSize: { w: number; h: number } | null;
  imageFormat: ImageFormatName | null;
  audio: OriginalSound | null;
  /** A sound's own probe, for its twins. */
  incomingProbe: AudioProbe | null;
  /** The twins the row replaces too, with what converting to each needs (decision 0050). */
  twins: PlannedTwin[];
  skip: boolean;
  /**
   * An image row's content as checked, to store when the batch is applied: the incoming file as it is, or the
   * file its plan fitted it into from the pixels it decoded for its check (decision 0060). `held` is the content
   * its plan read, kept only until its lane has staged it; `read` reads it again (a frame, a row landed alone).
   */
  content: {
    read(): Promise<Buffer>;
    held: Buffer | null;
    width: number;
    height: number;
    format: ImageFormatName;
  } | null;
  /** Why fitting the row failed: its outcome once applied. */
  fitError: ImageFitError | null;
}

export interface PlannedTwin {
  twin: BatchTwin;
  file: GameFileRow;
  audio: OriginalSound | null;
}

/** A game's sound as converting to it needs it: its probe and loudness. */
export interface OriginalSound {
  original: AudioProbe;
  originalLufs: number | null;
}

/** What every row of one batch is planned against. */
export interface BatchContext {
  files: Map<number, GameFileRow>;
  /** Every file of the game, for a sound's twins. */
  all: GameFileRow[];
  atlases: Atlas[];
  usage: Map<number, BatchUsage>;
  options: BatchOptions;
  /** The user whose turn the batch's ffmpeg work waits for (ffmpegSessions). */
  owner: number;
  /** Whether the batch is applied: its plan then fits each image row it decodes (decision 0060). */
  applying: boolean;
}

export const noUsage: BatchUsage = { loads: 0, atStart: false };

export const emptyMedia: BatchMedia = {
  format: null,
  width: null,
  height: null,
  durationSeconds: null,
  sampleRate: null,
  channels: null,
  lufs: null,
  size: null,
};

/** Whether a row is one to store: matched, or to be fitted or converted. */
export const wantedRow = (row: BatchRow) =>
  row.status === 'matched' || row.status === 'needs_fit' || row.status === 'needs_conversion';

/** Every frame of the game's atlases, with its sheet image, for matching by name. */
export function framesOf(atlases: Atlas[]): BatchFrame[] {
  return atlases.flatMap((atlas) =>
    atlas.frames.flatMap((frame) => {
      const page = atlas.pages[frame.page];
      return page ? [{ fileId: page.fileId, path: page.image, name: frame.name }] : [];
    }),
  );
}

/** Two incoming files for one game file (or frame): the later ones are refused, naming the first. */
export function markDuplicates(planned: PlannedRow[]): void {
  const first = new Map<string, string>();
  for (const { row, skip } of planned) {
    if (skip || row.fileId === null || !wantedRow(row)) continue;
    const key = `${row.fileId}\n${row.frame ?? ''}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, row.incoming);
      continue;
    }
    row.status = 'invalid';
    row.errorCode = 'duplicate';
    row.error = `${earlier} already replaces ${row.frame ?? row.path ?? 'this file'}.`;
  }
}

export function summarise(rows: BatchRow[]): BatchAnswer['summary'] {
  const count = (test: (row: BatchRow) => boolean) => rows.filter(test).length;
  return {
    total: rows.length,
    matched: count((row) => row.status === 'matched'),
    needsFit: count((row) => row.status === 'needs_fit'),
    needsConversion: count((row) => row.status === 'needs_conversion'),
    ambiguous: count((row) => row.status === 'ambiguous'),
    unmatched: count((row) => row.status === 'unmatched'),
    notReplaceable: count((row) => row.status === 'not_replaceable'),
    invalid: count((row) => row.status === 'invalid'),
    replaced: count((row) => row.outcome === 'replaced'),
    failed: count((row) => row.outcome === 'failed'),
    skipped: count((row) => row.outcome === 'skipped'),
    twinsReplaced: rows.reduce(
      (sum, row) => sum + row.twins.filter((twin) => twin.outcome === 'replaced').length,
      0,
    ),
  };
}
