import { generationFailureMessage, type GenerationFailureCause } from '@reskin/contract';
import { isDatabaseUnavailable } from '../../db/database';
import { StorageFullError, StorageUnavailableError } from '../../storage/storage-faults';

/**
 * An image whose copies cannot be made (it does not decode, is over the pixel limit, or its stored file is gone):
 * trying again cannot help. Its message is the library's (for the log); `cause` and `path` word it for people.
 */
export class ImageError extends Error {
  constructor(
    readonly path: string,
    readonly failure: Extract<
      GenerationFailureCause,
      'unreadable_image' | 'image_too_large' | 'missing_file'
    >,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${path}: ${message}`, options);
  }
}

/** What a failed decode of `path` is: sharp's pixel limit says "exceeds pixel limit"; anything else is an unreadable image. */
export function imageDecodeError(path: string, error: unknown): ImageError {
  const message = error instanceof Error ? error.message : String(error);
  return new ImageError(
    path,
    /pixel limit/i.test(message) ? 'image_too_large' : 'unreadable_image',
    message,
    { cause: error },
  );
}

/**
 * Why a generation failed, in the words kept as the game's statusReason (decision 0052: the contract's
 * generationFailureMessage, one sentence per known cause). The error itself goes to the log, never to the reason.
 */
export function generationFailureReason(error: unknown): string {
  if (error instanceof ImageError) return generationFailureMessage(error.failure, error.path);
  if (error instanceof StorageFullError) return generationFailureMessage('out_of_space');
  if (error instanceof StorageUnavailableError) return generationFailureMessage('storage_unavailable');
  if (isDatabaseUnavailable(error)) return generationFailureMessage('database_unavailable');
  return generationFailureMessage('unknown');
}

/**
 * The reason of a job its queue gave up on (pg-boss's dead letter): a job stopped for running past its time says
 * so in its output ("...timeout..."), else it failed on every try.
 */
export function gaveUpReason(why: string): string {
  return generationFailureMessage(/time(d)?\s*out|expired/i.test(why) ? 'timeout' : 'kept_failing');
}
