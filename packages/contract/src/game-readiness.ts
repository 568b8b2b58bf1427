import { can } from './permissions';
import { GameStatus } from './roles';

/**
 * A game that is not Ready yet (a new game, or one an admin is generating), in the words of who reads it
 *: artists are never told to generate; admins, who can press Gen., are. A game whose generation failed
 * is said as such (decision 0052): it will not become ready by waiting, and the administrators have been told.
 */
export const gameReadinessMessages = {
  /** My Games' card of a game that is not Ready. */
  preparing: 'This game is being prepared',
  /** What an artist reads where the game would play or show its files. */
  preparingDetail: 'This game is being prepared: you can play it and see its files once it is ready.',
  /** What an administrator reads: they can make it Ready. */
  notReadyAdmin: 'The game is not ready to play: generate its files first.',
  /** My Games' card of a game whose generation failed (decision 0052). */
  failed: 'This game could not be prepared',
  /** What an artist reads of a game whose generation failed: the administrators have an inbox event of it. */
  failedDetail: 'This game could not be prepared: an administrator has been told and will fix it.',
  /** What an administrator reads of a Failed game where it would play: why is on the games list and files screen. */
  failedAdmin: 'The game could not be generated: see why on its files screen, fix it, then press Gen. again.',
} as const;

/** Whether a game can be played: only a Ready game has its play copies (SPEC §4: Play only when status is 2). */
export function isGameReady(game: { gameStatusTypeId: number }): boolean {
  return game.gameStatusTypeId === GameStatus.Ready;
}

/** Whether a game's last generation failed (status 4): it stays unplayable until an administrator generates it again. */
export function isGameFailed(game: { gameStatusTypeId: number }): boolean {
  return game.gameStatusTypeId === GameStatus.Failed;
}

/**
 * The not-ready message for a role and the game's status: the admin wording for those who manage games, the artist's
 * for everyone else; a Failed game's own wording for both (decision 0052). Without the game, the not-ready wording.
 */
export function gameNotReadyMessage(roleTypeId: number, game?: { gameStatusTypeId: number }): string {
  const failed = game !== undefined && isGameFailed(game);
  if (can(roleTypeId, 'games.manage'))
    return failed ? gameReadinessMessages.failedAdmin : gameReadinessMessages.notReadyAdmin;
  return failed ? gameReadinessMessages.failedDetail : gameReadinessMessages.preparingDetail;
}

/** My Games' short line on the card of a game that is not Ready: being prepared, or could not be prepared. */
export function gameNotReadyCardText(game: { gameStatusTypeId: number }): string {
  return isGameFailed(game) ? gameReadinessMessages.failed : gameReadinessMessages.preparing;
}

/**
 * Why a generation failed (decision 0052): the known causes, each said in plain words by
 * generationFailureMessage. The server classifies what went wrong (modules/games/generation-failure.ts), keeps
 * the sentence as the game's statusReason and the library's own message only in its log.
 */
export const generationFailureCauses = [
  /** An image that does not decode (damaged, cut short, or not the format its name says). */
  'unreadable_image',
  /** An image over the pixel limit the server processes. */
  'image_too_large',
  /** A game file whose stored content is gone. */
  'missing_file',
  /** The data volume, the temporary folder or the database's disk has no room left. */
  'out_of_space',
  /** The file storage could not be reached. */
  'storage_unavailable',
  /** The database could not be reached. */
  'database_unavailable',
  /** The job ran past its time and was stopped. */
  'timeout',
  /** The job failed again and again (the job queue gave up). */
  'kept_failing',
  /** The job could not be queued. */
  'not_queued',
  /** The server restarted while the job ran. */
  'interrupted',
  /** The job ended without its result recorded. */
  'not_recorded',
  /** Anything else (the server's log has the details). */
  'unknown',
] as const;
export type GenerationFailureCause = (typeof generationFailureCauses)[number];

const retry = 'then press Gen. again.';

/** The sentence of a failure cause; `path` names the game file it concerns, when one does. */
export function generationFailureMessage(cause: GenerationFailureCause, path?: string): string {
  const file = path ? `The file ${path}` : 'A file';
  switch (cause) {
    case 'unreadable_image':
      return `${file} could not be read as an image: it may be damaged or not the format its name says. Replace or delete it, ${retry}`;
    case 'image_too_large':
      return `${file} is an image too large to process. Replace it with a smaller one, ${retry}`;
    case 'missing_file':
      return `${file} is missing from the server's storage. Upload it again, ${retry}`;
    case 'out_of_space':
      return `The server has too little free space to store the copies. Free some space, ${retry}`;
    case 'storage_unavailable':
      return `The file storage could not be reached during generation. Wait a moment, ${retry}`;
    case 'database_unavailable':
      return `The database could not be reached during generation. Wait a moment, ${retry}`;
    case 'timeout':
      return `The generation took too long and was stopped. Check the game's largest images, ${retry}`;
    case 'kept_failing':
      return `The generation failed several times in a row. Check the game's files, ${retry}`;
    case 'not_queued':
      return `The generation could not be started. Wait a moment, ${retry}`;
    case 'interrupted':
      return `The server restarted during generation. Nothing is wrong with the files: press Gen. again.`;
    case 'not_recorded':
      return `The generation ended without recording its result: press Gen. again.`;
    case 'unknown':
      return `The generation failed for a reason the server does not know how to word (its log has the details). Check the game's files, ${retry}`;
  }
}
