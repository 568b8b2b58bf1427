import { createReadStream, createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import {
  batchMessages,
  extensionOfName,
  fileKindOf,
  framesOfSheet,
  imageFormatOfName,
  imageFormats,
  kindOfName,
  limits,
  matchBatch,
  validationMessages,
  type Atlas,
  type BatchAnswer,
  type BatchFrame,
  type BatchMatch,
  type BatchMedia,
  type BatchOptions,
  type BatchRow,
  type FileKind,
  type FitMode,
  type GameVersion,
  type ImageFormatName,
  type User,
} from '@reskin/contract';
import { isAudioContent } from '../../lib/audio-inspection';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { canWriteFormat, fitImage, ImageFitError } from '../../lib/image-fit';
import { InvalidImageError, inspectImage } from '../../lib/image-inspection';
import { fileTooLarge } from '../../lib/multipart';
import type { Storage } from '../../storage/storage';
import type { AtlasesService } from '../atlases/atlases.service';
import type { VersionFramesService } from '../atlases/version-frames.service';
import type { GameFileRow, GamesRepository } from '../games/games.repository';
import type { VersionsService } from './versions.service';

/** One received file of a batch, written to a temporary file of this server. */
export interface BatchIncomingFile {
  /** Its path as sent. */
  incoming: string;
  /** The temporary file, or null when it was over the per-file limit (and not kept). */
  file: string | null;
  size: number;
}

/** What the audio tools (issue 27, lib/audio-*) tell of a sound. */
export interface AudioFacts {
  /** The container (ogg, mp3, wav, m4a, flac, webm, ...). */
  format: string;
  codec: string | null;
  durationSeconds: number | null;
  sampleRate: number | null;
  channels: number | null;
  lufs: number | null;
}

/**
 * The sound side of a batch: probing and converting. Until a converter is wired, a sound of another container is
 * planned as needing conversion and refused when applied.
 */
export interface BatchAudio {
  /** The facts of a sound file, or undefined when it is not audio the tools can read. */
  probe(file: string): Promise<AudioFacts | undefined>;
  /** Converts `input` to `output` in the target's container, codec, sample rate and channels (and loudness when given). */
  convert(input: string, output: string, target: AudioFacts, options: { lufs: number | null }): Promise<void>;
}

/** A resolved row while planning: the match plus what the apply step needs. */
interface PlannedRow {
  row: BatchRow;
  source: BatchIncomingFile;
  original: GameFileRow | null;
  /** For a frame row: the frame's full size. */
  frameSize: { w: number; h: number } | null;
  imageFormat: ImageFormatName | null;
  audio: { incoming: AudioFacts | undefined; original: AudioFacts | undefined } | null;
  skip: boolean;
}

const emptyMedia: BatchMedia = { format: null, width: null, height: null, durationSeconds: null, sampleRate: null, channels: null, lufs: null, size: null };

/** Containers that are one format under several extensions. */
const audioContainerOf: Record<string, string> = { oga: 'ogg', opus: 'ogg', weba: 'webm', aac: 'm4a' };
const containerOfName = (path: string) => {
  const ext = extensionOfName(path);
  return audioContainerOf[ext] ?? ext;
};

/**
 * Replace from a folder or a zip (issue 27, decision 0030): POST /game-versions/{versionId}/batch. Plans each
 * incoming file against the game's files and atlas frames (matchBatch in the contract), checks it by content
 * (the single upload's checks), and on apply fits or converts it and stores it through the single upload
 * (VersionsService.upload) or the frame upload (VersionFramesService.uploadFrame), so every version rule of those
 * holds per row. A row's refusal is that row's outcome; the others go on.
 */
export class VersionBatchService {
  constructor(
    private readonly versions: VersionsService,
    private readonly frames: VersionFramesService,
    private readonly games: GamesRepository,
    private readonly atlases: AtlasesService,
    private readonly storage: Storage,
    private readonly maxFileSizeBytes: number,
    private audio: BatchAudio | null = null,
  ) {}

  /** Wires the sound tools (probe, convert). */
  useAudio(audio: BatchAudio): void {
    this.audio = audio;
  }

  /**
   * The version a batch may change (the single upload's rules: demo 403, someone else's 404, locked or disabled
   * 423), refused before the body is read, and the most files the batch may hold: the game's file count.
   */
  async open(user: User, versionId: number): Promise<{ version: GameVersion; maxFiles: number }> {
    const version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
    const files = await this.games.listFiles(version.gameId);
    return { version, maxFiles: Math.max(files.length, 1) };
  }

  async run(user: User, version: GameVersion, incoming: BatchIncomingFile[], options: BatchOptions, makeTemp: (name: string) => string): Promise<BatchAnswer> {
    const dryRun = options.dryRun === 'true';
    const files = await this.games.listFiles(version.gameId);
    const { atlases } = await this.atlases.find(version.gameId);
    const matches = matchBatch(incoming.map((file) => file.incoming), files, framesOf(atlases));
    const byFileId = new Map(files.map((file) => [file.fileId, file]));
    const planned: PlannedRow[] = [];
    for (const [index, match] of matches.entries()) {
      const source = incoming[index];
      if (!source) continue;
      planned.push(await this.plan(match, source, byFileId, atlases, options, makeTemp));
    }
    markDuplicates(planned);
    if (!dryRun) {
      for (const row of planned) await this.apply(user, version, row, options, makeTemp);
    }
    const rows = planned.map((planned) => planned.row);
    return { dryRun, rows, summary: summarise(rows) };
  }

  private async plan(
    match: BatchMatch,
    source: BatchIncomingFile,
    files: Map<number, GameFileRow>,
    atlases: Atlas[],
    options: BatchOptions,
    makeTemp: (name: string) => string,
  ): Promise<PlannedRow> {
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
    };
    const planned: PlannedRow = { row, source, original: null, frameSize: null, imageFormat: null, audio: null, skip: (options.skip ?? []).includes(match.incoming) };
    const invalid = (code: string, message: string) => {
      row.status = 'invalid';
      row.errorCode = code;
      row.error = message;
      return planned;
    };

    // A choice names the game file (or frame) of an ambiguous or unmatched row, or skips the row (null).
    const choice = options.choices?.[match.incoming];
    if (choice === null) planned.skip = true;
    else if (choice !== undefined) {
      const fileId = typeof choice === 'number' ? choice : choice.fileId;
      const frame = typeof choice === 'number' ? null : (choice.frame ?? null);
      const file = files.get(fileId);
      const inSheet = frame === null || atlases.some((atlas) => atlas.frames.some((f) => f.name === frame && atlas.pages[f.page]?.fileId === fileId));
      if (!file || !inSheet) return invalid('bad_choice', `The chosen ${frame === null ? 'file' : 'frame'} is not one of this game's.`);
      Object.assign(row, { status: 'matched', matchedBy: 'choice', fileId, path: file.path, frame, candidates: [], kind: fileKindOf(file) });
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
    const originalKind = fileKindOf(original);
    if (originalKind === 'other') {
      row.status = 'not_replaceable';
      row.error = batchMessages.notReplaceable;
      return planned;
    }
    row.kind = originalKind;
    const incomingKind: FileKind = kindOfName(match.relative);
    if (incomingKind !== originalKind) return invalid('wrong_kind', batchMessages.wrongKind(originalKind));
    if (!source.file) return invalid('too_large', fileTooLarge(match.relative, this.maxFileSizeBytes).message);
    if (source.size === 0) return invalid('empty', 'The file is empty (0 bytes).');

    if (originalKind === 'image') {
      let frameSize: { w: number; h: number } | null = null;
      if (row.frame !== null) {
        const frame = atlases.flatMap((atlas) => atlas.frames.filter((f) => f.name === row.frame && atlas.pages[f.page]?.fileId === original.fileId))[0];
        frameSize = frame?.sourceSize ?? null;
      }
      planned.frameSize = frameSize;
      const targetWidth = frameSize?.w ?? original.width ?? 0;
      const targetHeight = frameSize?.h ?? original.height ?? 0;
      const originalFormat = imageFormatOfName(original.path) ?? null;
      row.originalMedia = { ...emptyMedia, format: originalFormat, width: targetWidth, height: targetHeight, size: original.size };
      let info;
      try {
        info = await inspectImage(createReadStream(source.file), match.relative);
      } catch (error) {
        if (error instanceof InvalidImageError) return invalid('invalid_image', `${validationMessages.imageReadError}: ${error.message}`);
        throw error;
      }
      planned.imageFormat = info.format;
      row.incomingMedia = { ...emptyMedia, format: info.format, width: info.width, height: info.height, size: source.size };
      const sameSize = info.width === targetWidth && info.height === targetHeight;
      // A frame is drawn onto its sheet whatever its format; a whole file must be the original's format.
      const sameFormat = row.frame !== null || info.format === originalFormat;
      if (sameSize && sameFormat) {
        row.status = 'matched';
        return planned;
      }
      row.status = sameSize ? 'needs_conversion' : 'needs_fit';
      if (originalFormat && row.frame === null && !canWriteFormat(originalFormat)) {
        return invalid('cannot_convert', `${original.path} is ${originalFormat.toUpperCase()}: replace it with a ${originalFormat.toUpperCase()} of ${targetWidth} x ${targetHeight} pixels.`);
      }
      if (await this.animated(source.file, info.format, original, originalFormat)) return invalid('animated', batchMessages.animatedGif);
      if (!sameSize) {
        row.fit = options.fits?.[match.incoming] ?? options.fit ?? null;
        if (row.fit === null) {
          row.errorCode = 'no_fit';
          row.error = batchMessages.noFit;
        }
      }
      return planned;
    }

    // A sound: audio by content; its container (and with the audio tools its codec, rate and channels) says
    // whether it needs converting.
    if (!(await isAudioContent(createReadStream(source.file)))) return invalid('not_audio', validationMessages.notAudio);
    const audio = this.audio;
    const incomingFacts = audio ? await audio.probe(source.file) : undefined;
    if (audio && !incomingFacts) return invalid('not_audio', validationMessages.notAudio);
    const originalFacts = audio ? await this.probeOriginal(audio, original, makeTemp) : undefined;
    planned.audio = { incoming: incomingFacts, original: originalFacts };
    row.incomingMedia = { ...emptyMedia, ...(incomingFacts ?? { format: containerOfName(match.relative) }), size: source.size };
    row.originalMedia = { ...emptyMedia, ...(originalFacts ?? { format: containerOfName(original.path) }), size: original.size };
    const sameAudio = incomingFacts && originalFacts
      ? incomingFacts.format === originalFacts.format && incomingFacts.codec === originalFacts.codec &&
        incomingFacts.sampleRate === originalFacts.sampleRate && incomingFacts.channels === originalFacts.channels
      : containerOfName(match.relative) === containerOfName(original.path);
    row.status = sameAudio && options.loudness === 'keep' ? 'matched' : 'needs_conversion';
    const [a, b] = [incomingFacts?.durationSeconds, originalFacts?.durationSeconds];
    if (a && b && Math.abs(a - b) / b > 0.1) row.warnings.push(batchMessages.durationDiffers(a, b));
    return planned;
  }

  /**
   * POST /game-versions/{versionId}/files/{fileId}/fit-preview: `content` fitted with `fit` to the original's (or
   * the frame's) size and format by the same fitImage the batch stores with, so the preview is the stored result.
   */
  async preview(
    user: User,
    versionId: number,
    fileId: number,
    upload: { fit: FitMode; frame: string | null; fileName: string | undefined; content: Readable },
  ): Promise<{ bytes: Buffer; contentType: string }> {
    let version: GameVersion;
    try {
      version = await this.versions.changeableVersion(user, versionId, 'upload', '/versionId');
    } catch (error) {
      upload.content.resume();
      throw error;
    }
    const original = await this.games.findFile(version.gameId, fileId);
    const refuse = (code: string, message: string) => unprocessable(message, [{ path: '/file', code, message }]);
    if (!original || fileKindOf(original) !== 'image') {
      upload.content.resume();
      throw original ? refuse('not_image', `${original.path} is not an image.`) : notFound('Game file');
    }
    let size = { w: original.width ?? 0, h: original.height ?? 0 };
    if (upload.frame !== null) {
      const { atlases } = await this.atlases.find(version.gameId);
      const frame = framesOfSheet(atlases, fileId).frames.get(upload.frame);
      if (!frame) {
        upload.content.resume();
        throw notFound('Frame');
      }
      size = frame.sourceSize;
    }
    const input = await buffer(upload.content);
    const named = upload.fileName && imageFormatOfName(upload.fileName) ? upload.fileName : original.path;
    let info;
    try {
      info = await inspectImage(Readable.from([input]), named);
    } catch (error) {
      if (error instanceof InvalidImageError) throw refuse('invalid_image', `${validationMessages.imageReadError}: ${error.message}`);
      throw error;
    }
    const format = imageFormatOfName(original.path) ?? 'png';
    try {
      const bytes = await fitImage(input, { width: size.w, height: size.h, mode: upload.fit, format, inputFormat: info.format });
      return { bytes, contentType: imageFormats[format].mimeTypes[0] };
    } catch (error) {
      if (error instanceof ImageFitError) throw refuse(error.code, error.message);
      throw error;
    }
  }

  /** Whether the incoming image or the original is animated (more than one frame): such a row is not fitted or converted. */
  private async animated(file: string, format: ImageFormatName, original: GameFileRow, originalFormat: ImageFormatName | null): Promise<boolean> {
    const pages = async (input: Buffer) => (await sharp(input, { limitInputPixels: false }).metadata()).pages ?? 1;
    if ((format === 'gif' || format === 'webp') && (await pages(await readFile(file))) > 1) return true;
    if (originalFormat !== 'gif' && originalFormat !== 'webp') return false;
    const stored = await this.storage.get(original.storageKey);
    if (!stored) return false;
    return (await pages(await buffer(stored.stream))) > 1;
  }

  /** The original sound's facts, probed from a temporary copy (the store may be S3). */
  private async probeOriginal(audio: BatchAudio, original: GameFileRow, makeTemp: (name: string) => string): Promise<AudioFacts | undefined> {
    const stored = await this.storage.get(original.storageKey);
    if (!stored) return undefined;
    const copy = makeTemp(`original.${extensionOfName(original.path)}`);
    await pipeline(stored.stream, createWriteStream(copy));
    return audio.probe(copy);
  }

  private async apply(user: User, version: GameVersion, planned: PlannedRow, options: BatchOptions, makeTemp: (name: string) => string): Promise<void> {
    const { row, source, original } = planned;
    const wanted = row.status === 'matched' || row.status === 'needs_fit' || row.status === 'needs_conversion';
    if (!wanted || planned.skip) {
      row.outcome = row.status === 'invalid' ? 'failed' : 'skipped';
      return;
    }
    if (row.errorCode !== null || !original || !source.file) {
      row.outcome = 'failed';
      return;
    }
    try {
      const content = await this.content(planned, original, source.file, options, makeTemp);
      if (row.frame !== null) {
        const named = row.status === 'matched' ? row.relative : original.path;
        await this.frames.uploadFrame(user, version.id, original.fileId, { frame: row.frame, fileName: named, content });
      } else {
        await this.versions.upload(user, version.id, original.fileId, content);
      }
      row.outcome = 'replaced';
    } catch (error) {
      if (error instanceof AppError) {
        row.outcome = 'failed';
        row.error = error.message;
        row.errorCode = error.details?.[0]?.code ?? error.code;
        return;
      }
      if (error instanceof ImageFitError) {
        row.outcome = 'failed';
        row.error = error.message;
        row.errorCode = error.code;
        return;
      }
      throw error;
    }
  }

  /** The bytes a row stores: the incoming file as it is, fitted or converted to the original's. */
  private async content(planned: PlannedRow, original: GameFileRow, file: string, options: BatchOptions, makeTemp: (name: string) => string): Promise<Readable> {
    const { row } = planned;
    if (row.kind === 'image') {
      if (row.status === 'matched') return createReadStream(file);
      // A frame is written in its sheet's format too (the composer draws it onto the sheet either way).
      const format = imageFormatOfName(original.path) ?? 'png';
      const fitted = await fitImage(await readFile(file), {
        width: planned.frameSize?.w ?? original.width ?? 0,
        height: planned.frameSize?.h ?? original.height ?? 0,
        mode: (row.fit ?? 'stretch') satisfies FitMode,
        format,
        inputFormat: planned.imageFormat ?? 'png',
      });
      return Readable.from([fitted]);
    }
    if (row.status === 'matched') return createReadStream(file);
    const audio = this.audio;
    const target = planned.audio?.original;
    if (!audio || !target) {
      throw new ImageFitError(`Sounds cannot be converted on this server yet: replace it with a .${extensionOfName(original.path)} file.`, 'cannot_convert');
    }
    const output = makeTemp(`converted.${extensionOfName(original.path)}`);
    await audio.convert(file, output, target, { lufs: options.loudness === 'match' ? target.lufs : null });
    return createReadStream(output);
  }
}

/** Every frame of the game's atlases, with its sheet image, for matching by name. */
function framesOf(atlases: Atlas[]): BatchFrame[] {
  return atlases.flatMap((atlas) =>
    atlas.frames.flatMap((frame) => {
      const page = atlas.pages[frame.page];
      return page ? [{ fileId: page.fileId, path: page.image, name: frame.name }] : [];
    }),
  );
}

/** Two incoming files for one game file (or frame): the later ones are refused, naming the first. */
function markDuplicates(planned: PlannedRow[]): void {
  const first = new Map<string, string>();
  for (const { row, skip } of planned) {
    if (skip || row.fileId === null || !['matched', 'needs_fit', 'needs_conversion'].includes(row.status)) continue;
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

function summarise(rows: BatchRow[]): BatchAnswer['summary'] {
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
  };
}

/** The most bytes a batch's files may hold together: a game zip's unpacked limit. */
export const maxBatchBytes = limits.zipUpload.maxUnpackedBytes;
