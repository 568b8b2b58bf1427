import { errorCodes, validationMessages } from '@reskin/contract';
import { AppError } from '../../../lib/errors';

/** What the artist reads when a sound cannot be probed, measured or converted (one place for each text). */
export const audioMessages = {
  unreadable: 'This file is not audio the server can read.',
  unsupported:
    'This sound is in a format the server does not convert (WAV, MP3, OGG, Opus, M4A, AAC, FLAC or WebM).',
  unsupportedTarget: 'The original sound is in a format the server cannot write.',
  tooSlow: 'Converting this sound took too long; try a shorter sound.',
  tooMuchMemory: 'Converting this sound needed more memory than the server allows; try a shorter sound.',
  tooLarge: 'The converted sound would be larger than the per-file limit.',
} as const;

/**
 * A sound the server cannot probe, measure or convert: a 422 in the error envelope (a route that throws it, or
 * a batch row that reports its message), never a 5xx.
 */
export class AudioError extends AppError {
  constructor(message: string, cause?: unknown) {
    super(422, errorCodes.validationFailed, message);
    if (cause !== undefined) this.cause = cause;
  }
}

/** A sound whose header says it lasts longer than limits.audioConversion.maxDurationSeconds: refused undecoded. */
export class SoundTooLongError extends AudioError {
  constructor(readonly durationSeconds: number) {
    super(validationMessages.soundTooLong(durationSeconds));
  }
}
