import { buffer } from 'node:stream/consumers';
import {
  batchMessages,
  limits,
  soundTwinsOf,
  type BatchMedia,
  type BatchOptions,
  type BatchRow,
} from '@reskin/contract';
import { AudioError, loudness, needsConversion, probeAudio, type AudioProbe } from '../audio-conversion';
import type { Storage } from '../../../storage/storage';
import type { GameFileRow } from '../../games/game-files.repository';
import {
  emptyMedia,
  noUsage,
  wantedRow,
  type BatchContext,
  type OriginalSound,
  type PlannedRow,
  type PlannedTwin,
} from './batch-rows';

// A sound row's twins: the other formats of the same path and name, replaced from the same incoming file, each
// converted to its own format (decision 0050); and what converting a sound to a game's sound needs.

/**
 * The twins of a planned sound row (not a frame), each marked to replace as `twins` (by file id) or `alsoTwins`
 * say; a `twins` entry that is not a twin of the row is the row's refusal (returned as its message).
 */
export function twinsOfRow(
  incoming: string,
  original: GameFileRow,
  context: BatchContext,
): PlannedTwin[] | { notTwin: string } {
  const { options, files } = context;
  const twins = soundTwinsOf(original.path, context.all);
  const wanted = options.twins?.[incoming];
  const stranger = wanted?.find((fileId) => !twins.some((twin) => twin.fileId === fileId));
  if (stranger !== undefined) {
    return { notTwin: batchMessages.notTwin(files.get(stranger)?.path ?? `File ${stranger}`) };
  }
  return twins.map((file) => ({
    file,
    audio: null,
    twin: {
      fileId: file.fileId,
      path: file.path,
      usage: context.usage.get(file.fileId) ?? noUsage,
      replace: wanted ? wanted.includes(file.fileId) : options.alsoTwins === 'true',
      status: null,
      originalMedia: null,
      warnings: [],
      outcome: null,
      error: null,
      errorCode: null,
    },
  }));
}

/**
 * The twins of the batch's sound rows, once every row is planned: a twin another row replaces (its own target,
 * or an earlier row's twin) is that row's, not this one's; each twin to replace is probed and measured like an
 * original, and what converting to it needs is its status.
 */
export async function planTwins(
  storage: Storage,
  planned: PlannedRow[],
  context: BatchContext,
): Promise<void> {
  const claimed = new Set(
    planned
      .filter(({ row, skip }) => !skip && wantedRow(row) && row.frame === null)
      .map(({ row }) => row.fileId),
  );
  for (const entry of planned) {
    const { row } = entry;
    entry.twins = entry.twins.filter(({ file }) => !claimed.has(file.fileId));
    if (!entry.skip && wantedRow(row))
      for (const { twin } of entry.twins) if (twin.replace) claimed.add(twin.fileId);
    row.twins = entry.twins.map(({ twin }) => twin);
    const heard =
      row.usage !== null && row.usage.loads === 0
        ? row.twins.find((twin) => twin.usage.loads > 0 && !twin.replace)
        : undefined;
    if (heard && wantedRow(row)) row.warnings.push(batchMessages.twinLoaded(heard.path));
    // A skipped row (a .zip's rows not chosen) replaces no twin: nothing to probe.
    if (!entry.incomingProbe || !wantedRow(row) || entry.skip) continue;
    for (const plannedTwin of entry.twins) {
      if (plannedTwin.twin.replace) await planTwin(storage, plannedTwin, entry.incomingProbe, context);
    }
  }
}

async function planTwin(
  storage: Storage,
  planned: PlannedTwin,
  incoming: AudioProbe,
  { options, owner }: BatchContext,
): Promise<void> {
  const { twin, file } = planned;
  const originalSound = await readOriginalSound(storage, file, owner);
  if ('unreadable' in originalSound) {
    twin.status = 'invalid';
    twin.errorCode = 'original_unreadable';
    twin.error = originalSound.unreadable;
    return;
  }
  planned.audio = originalSound;
  twin.originalMedia = soundMedia(originalSound.original, originalSound.originalLufs, file.size);
  twin.status = soundStatus(incoming, originalSound, options);
  twin.warnings.push(...durationWarnings(incoming, originalSound.original));
}

/**
 * A game's sound read from storage, probed and measured for converting to it; a loudness measurement that fails
 * leaves the loudness unknown, never the row. `unreadable`: what the row says when the sound cannot be read.
 */
export async function readOriginalSound(
  storage: Storage,
  file: GameFileRow,
  owner: number,
): Promise<OriginalSound | { unreadable: string }> {
  const stored = await storage.get(file.storageKey);
  if (!stored) throw new Error(`the stored object ${file.storageKey} is missing`);
  const bytes = await buffer(stored.stream);
  try {
    const original = await probeAudio(bytes, { owner });
    return { original, originalLufs: await measuredLoudness(bytes, owner) };
  } catch (error) {
    if (error instanceof AudioError)
      return { unreadable: `The original sound cannot be read for converting: ${error.message}` };
    throw error;
  }
}

/** A sound's figures as a row shows them. */
export function soundMedia(probe: AudioProbe, lufs: number | null, size: number): BatchMedia {
  return {
    ...emptyMedia,
    format: probe.container,
    durationSeconds: probe.durationSeconds || null,
    sampleRate: probe.sampleRate,
    channels: probe.channels,
    lufs,
    size,
  };
}

/** Whether the incoming sound is stored as it is or converted to the original's format (or loudness). */
export function soundStatus(
  incoming: AudioProbe,
  { original, originalLufs }: OriginalSound,
  options: BatchOptions,
): Extract<BatchRow['status'], 'matched' | 'needs_conversion'> {
  const matchLoudness = options.loudness === 'match' && originalLufs !== null;
  return needsConversion(incoming, original) || matchLoudness ? 'needs_conversion' : 'matched';
}

/** A sound's loudness, or unknown (null) when measuring it fails. */
export async function measuredLoudness(input: string | Uint8Array, owner: number): Promise<number | null> {
  return loudness(input, { owner }).catch((error: unknown) => {
    if (error instanceof AudioError) return null;
    throw error;
  });
}

/** The durations of a sound and the one it replaces, when they differ by more than 10 %. */
export function durationWarnings(incoming: AudioProbe, original: AudioProbe): string[] {
  const [a, b] = [incoming.durationSeconds, original.durationSeconds];
  return a > 0 && b > 0 && Math.abs(a - b) / b > limits.audioConversion.durationWarningRatio
    ? [batchMessages.durationDiffers(a, b)]
    : [];
}
