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

/** One received file of a batch, written to a temporary file of this server. */
export interface BatchIncomingFile {
  /** Its path as sent. */
  incoming: string;
  /** The temporary file, or null when it was over the per-file limit (and not kept). */
  file: string | null;
  size: number;
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
   * file its plan fitted it into from the pixels it decoded for its check (decision 0060).
   */
  content: { file: string; width: number; height: number; format: ImageFormatName } | null;
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
