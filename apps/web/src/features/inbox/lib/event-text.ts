import { can, inboxEventSentence, type InboxEvent } from '@reskin/contract';
import { paths } from '../../../config/paths';
import { idsQuery } from '../../../lib/route-ids';
import { fileIdParam } from '../../../lib/use-focused-file';

/** The fields of an inbox event its wording and link read. */
export type EventFacts = Pick<
  InboxEvent,
  'kind' | 'actorName' | 'gameId' | 'gameName' | 'userGameId' | 'versionId' | 'fileId' | 'noteId' | 'text'
> &
  Partial<Pick<InboxEvent, 'versionOwner' | 'versionOwnerName'>>;

/**
 * One inbox event in words: who did what on which game, and whose version it is (decision 0052); the
 * contract's sentence, which the mails use too. The event's own `text` (the verdict and its note, a note's words, a
 * failed generation's reason) is shown under this line.
 */
export function eventSentence(event: EventFacts): string {
  return inboxEventSentence(event);
}

/**
 * The screen an event is about, or null when it names too little to find one. A game assigned opens that game's
 * versions; a finished version opens the reviewer's files screen of that version; a verdict, a note or an answer
 * opens the version where the reader works on it: the reviewer's files screen for those who review versions, the
 * artist's workbench for the others, at the file's card when the event is about a file.
 */
export function eventLink(event: EventFacts, readerRoleTypeId: number): string | null {
  const { gameId, userGameId, versionId, fileId } = event;
  // A failed generation opens the game's files screen, where its reason and Gen. are (decision 0052).
  if (event.kind === 'generation_failed')
    return gameId === null ? paths.games : `${paths.gameFiles}?${idsQuery({ gameId })}`;
  if (event.kind === 'game_assigned') {
    return userGameId === null
      ? paths.myGames
      : `${paths.myGameVersions}?${idsQuery({ userGameId, gameId })}`;
  }
  if (versionId === null || gameId === null) return null;
  const reviewer = event.kind === 'version_finished' || can(readerRoleTypeId, 'versions.review');
  // The workbench finds the version through the artist's assignment; without it, My Games.
  if (!reviewer && userGameId === null) return paths.myGames;
  const screen = reviewer ? paths.userGameVersionFiles : paths.workbench;
  const query = new URLSearchParams(idsQuery({ versionId, gameId, userGameId }));
  if (fileId !== null) query.set(fileIdParam, String(fileId));
  return `${screen}?${query.toString()}`;
}
