import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import { sharp } from '../../../lib/images/sharp';
import {
  batchMessages,
  fileKindOf,
  framesOfSheet,
  imageFormatOfName,
  kindOfName,
  type BatchMatch,
  type BatchRow,
  type FileKind,
  type ImageFormatName,
} from '@reskin/contract';
import { AudioError, SoundTooLongError, probeAudio, type AudioProbe } from '../audio-conversion';
import { AppError } from '../../../lib/errors';
import { ImageFitError, canWriteFormat, finishFit, scaleForFit } from '../../../lib/images/image-fit';
import { fileTooLarge } from '../../../lib/multipart';
import type { Pixels } from '../../../lib/images/pixels';
import type { Storage } from '../../../storage/storage';
import { storageFault } from '../../../storage/storage-faults';
import type { GameFileRow } from '../../games/game-files.repository';
import {
  assertAudioContent,
  assertNotEmpty,
  readableHeader,
  readableRest,
  tooLong,
} from '../intake/intake-checks';
import {
  emptyMedia,
  noUsage,
  type BatchContext,
  type BatchIncomingFile,
  type IncomingContent,
  type PlannedRow,
} from './batch-rows';
import {
  durationWarnings,
  measuredLoudness,
  readOriginalSound,
  soundMedia,
  soundStatus,
  twinsOfRow,
} from './sound-twins';

/**
 * Plans one incoming file of a batch (decision 0030): the game file or frame it replaces (a choice may name it),
 * then its content checked with the intake's checks (intake/intake-checks.ts, decision 0055), whose refusal is
 * the row's (`invalid`, the check's code and message), and what storing it needs: as it is, fitted or converted.
 */
export class BatchPlanner {
  constructor(
    private readonly storage: Storage,
    private readonly maxFileSizeBytes: number,
  ) {}

  async plan(match: BatchMatch, source: BatchIncomingFile, context: BatchContext): Promise<PlannedRow> {
    const { files, atlases, options } = context;
    const row: BatchRow = {
      incoming: match.incoming,
      relative: match.relative,
      status: match.status,
      matchedBy: match.matchedBy,
      fileId: match.fileId,
      path: match.path,
      frame: match.frame,
      candidates: match.candidates,
      kind: match.kind,
      incomingMedia: null,
      originalMedia: null,
      fit: null,
      warnings: [],
      outcome: null,
      error: null,
      errorCode: null,
      usage: null,
      twins: [],
    };
    const planned: PlannedRow = {
      row,
      source,
      original: null,
      frameSize: null,
      imageFormat: null,
      audio: null,
      incomingProbe: null,
      twins: [],
      skip: (options.skip ?? []).includes(match.incoming),
      content: null,
      fitError: null,
    };
    const invalid = (code: string, message: string) => {
      this.invalid(row, code, message);
      return planned;
    };

    // A choice names the game file (or frame) of an ambiguous or unmatched row, or skips the row (null).
    const choice = options.choices?.[match.incoming];
    if (choice === null) planned.skip = true;
    else if (choice !== undefined) {
      const fileId = typeof choice === 'number' ? choice : choice.fileId;
      const frame = typeof choice === 'number' ? null : (choice.frame ?? null);
      const file = files.get(fileId);
      const inSheet = frame === null || framesOfSheet(atlases, fileId).frames.has(frame);
      if (!file || !inSheet)
        return invalid(
          'bad_choice',
          `The chosen ${frame === null ? 'file' : 'frame'} is not one of this game's.`,
        );
      Object.assign(row, {
        status: 'matched',
        matchedBy: 'choice',
        fileId,
        path: file.path,
        frame,
        candidates: [],
        kind: fileKindOf(file),
      });
    }
    if (row.status === 'ambiguous') {
      row.error = batchMessages.ambiguous;
      return planned;
    }
    if (row.status === 'unmatched') {
      row.error = batchMessages.unmatched;
      return planned;
    }
    const original = row.fileId === null ? undefined : files.get(row.fileId);
    if (!original) return planned;
    planned.original = original;
    row.usage = context.usage.get(original.fileId) ?? noUsage;
    const originalKind = fileKindOf(original);
    if (originalKind === 'other') {
      row.status = 'not_replaceable';
      row.error = batchMessages.notReplaceable;
      return planned;
    }
    row.kind = originalKind;
    const incomingKind: FileKind = kindOfName(match.relative);
    if (incomingKind !== originalKind) return invalid('wrong_kind', batchMessages.wrongKind(originalKind));
    if (!source.content)
      return invalid('too_large', fileTooLarge(match.relative, this.maxFileSizeBytes).message);
    try {
      assertNotEmpty(source.size);
      if (originalKind === 'image') await this.planImage(planned, original, source.content, context);
      else await this.planSound(planned, original, await source.content.file(), context);
    } catch (error) {
      // An intake check's refusal (422, its detail's code) is the row's.
      if (!(error instanceof AppError) || error.statusCode !== 422) throw error;
      return invalid(error.details[0]?.code ?? error.code, error.message);
    }
    return planned;
  }

  /**
   * An image row: readable as the image its name says (its header, then every pixel decoded once), then stored as
   * it is, converted or fitted. When the batch is applied, a row to fit or convert is fitted from the pixels its
   * check decoded (decision 0060) into a temporary file of its own: `content`, or `fitError`. A PNG's rest is
   * checked by its chunks' CRCs (decision 0061), so a row stored as it is decodes no pixel.
   */
  private async planImage(
    planned: PlannedRow,
    original: GameFileRow,
    source: IncomingContent,
    { atlases, options, applying }: BatchContext,
  ): Promise<void> {
    const { row } = planned;
    const frameSize =
      row.frame === null
        ? null
        : (framesOfSheet(atlases, original.fileId).frames.get(row.frame)?.sourceSize ?? null);
    planned.frameSize = frameSize;
    const targetWidth = frameSize?.w ?? original.width ?? 0;
    const targetHeight = frameSize?.h ?? original.height ?? 0;
    const originalFormat = imageFormatOfName(original.path) ?? null;
    row.originalMedia = {
      ...emptyMedia,
      format: originalFormat,
      width: targetWidth,
      height: targetHeight,
      size: original.size,
    };
    const bytes = await source.bytes();
    const info = await readableHeader(bytes, row.relative);
    planned.imageFormat = info.format;
    row.incomingMedia = {
      ...emptyMedia,
      format: info.format,
      width: info.width,
      height: info.height,
      size: planned.source.size,
    };
    const sameSize = info.width === targetWidth && info.height === targetHeight;
    // A frame is drawn onto its sheet whatever its format; a whole file must be the original's format.
    const sameFormat = row.frame !== null || info.format === originalFormat;
    if (sameSize && sameFormat) {
      await readableRest(bytes, row.relative, info);
      row.status = 'matched';
      const { width, height, format } = info;
      planned.content = { read: () => source.bytes(), held: bytes, width, height, format };
      return;
    }
    row.status = sameSize ? 'needs_conversion' : 'needs_fit';
    if (originalFormat && row.frame === null && !canWriteFormat(originalFormat)) {
      await readableRest(bytes, row.relative, info);
      const format = originalFormat.toUpperCase();
      return this.invalid(
        row,
        'cannot_convert',
        `${original.path} is ${format}: replace it with a ${format} of ${targetWidth} x ${targetHeight} pixels.`,
      );
    }
    if (await this.animated(bytes, info.format, original, originalFormat)) {
      await readableRest(bytes, row.relative, info);
      return this.invalid(row, 'animated', batchMessages.animatedGif);
    }
    if (!sameSize) {
      row.fit = options.fits?.[row.incoming] ?? options.fit ?? null;
      if (row.fit === null) {
        row.errorCode = 'no_fit';
        row.error = batchMessages.noFit;
      }
    }
    if (!applying || planned.skip || row.errorCode !== null) {
      await readableRest(bytes, row.relative, info);
      return;
    }
    // A frame is written in its sheet's format too (the composer draws it onto the sheet either way).
    const fit = {
      width: targetWidth,
      height: targetHeight,
      mode: row.fit ?? 'stretch',
      format: originalFormat ?? 'png',
    } as const;
    let scaled: Pixels;
    try {
      scaled = await scaleForFit(bytes, { ...fit, inputFormat: info.format });
    } catch (error) {
      // The fit's read is the check: a damaged file is refused as the check refuses it, anything else failed fitting.
      await readableRest(bytes, row.relative, info);
      if (!(error instanceof ImageFitError)) throw error;
      planned.fitError = error;
      return;
    }
    let fitted: Buffer;
    try {
      fitted = await finishFit(scaled, fit);
    } catch (error) {
      if (!(error instanceof ImageFitError)) throw error;
      planned.fitError = error;
      return;
    }
    const into = source.beside('fitted');
    await writeFile(into, fitted).catch((error: unknown) => {
      throw storageFault(error, 'temp');
    });
    planned.content = {
      read: () => readFile(into),
      held: fitted,
      width: targetWidth,
      height: targetHeight,
      format: fit.format,
    };
  }

  /**
   * A sound row: audio by content, then probed and measured by the audio module (ffmpeg in workers, decision
   * 0029); its container, codec, rate and channels say whether it needs converting.
   */
  private async planSound(
    planned: PlannedRow,
    original: GameFileRow,
    file: string,
    context: BatchContext,
  ): Promise<void> {
    const { row, source } = planned;
    const { owner, options } = context;
    await assertAudioContent(createReadStream(file));
    let incomingProbe: AudioProbe;
    try {
      incomingProbe = await probeAudio(file, { owner });
    } catch (error) {
      if (error instanceof SoundTooLongError) throw tooLong(error);
      if (error instanceof AudioError) return this.invalid(row, 'not_audio', error.message);
      throw error;
    }
    const originalSound = await readOriginalSound(this.storage, original, owner);
    if ('unreadable' in originalSound)
      return this.invalid(row, 'original_unreadable', originalSound.unreadable);
    planned.audio = originalSound;
    row.incomingMedia = soundMedia(incomingProbe, await measuredLoudness(file, owner), source.size);
    row.originalMedia = soundMedia(originalSound.original, originalSound.originalLufs, original.size);
    planned.incomingProbe = incomingProbe;
    row.status = soundStatus(incomingProbe, originalSound, options);
    row.warnings.push(...durationWarnings(incomingProbe, originalSound.original));
    if (row.frame === null) {
      const twins = twinsOfRow(row.incoming, original, context);
      if ('notTwin' in twins) return this.invalid(row, 'not_twin', twins.notTwin);
      planned.twins = twins;
    }
  }

  /** The row refused at planning: it is not stored, `error` says why. */
  private invalid(row: BatchRow, code: string, message: string): void {
    row.status = 'invalid';
    row.errorCode = code;
    row.error = message;
  }

  /** Whether the incoming image or the original is animated (more than one frame): such a row is not fitted or converted. */
  private async animated(
    input: Buffer,
    format: ImageFormatName,
    original: GameFileRow,
    originalFormat: ImageFormatName | null,
  ): Promise<boolean> {
    const pages = async (bytes: Buffer) =>
      (await sharp(bytes, { limitInputPixels: false }).metadata()).pages ?? 1;
    if ((format === 'gif' || format === 'webp') && (await pages(input)) > 1) return true;
    if (originalFormat !== 'gif' && originalFormat !== 'webp') return false;
    const stored = await this.storage.get(original.storageKey);
    if (!stored) return false;
    return (await pages(await buffer(stored.stream))) > 1;
  }
}
