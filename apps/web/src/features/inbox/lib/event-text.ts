import { can, type InboxEvent } from '@reskin/contract';
import { paths } from '../../../config/paths';
import { idsQuery } from '../../../lib/route-ids';

/** The fields of an inbox event its wording and link read. */
export type EventFacts = Pick<
  InboxEvent,
  'kind' | 'actorName' | 'gameId' | 'gameName' | 'userGameId' | 'versionId' | 'fileId' | 'noteId' | 'text'
>;

/** The query key naming the file card a link opens at (workbench and review screen), as `?fileId=`. */
export const fileIdParam = 'fileId';

/**
 * One inbox event in words (issue 28): who did what on which game. The event's own `text` (the verdict and its
 * note, a note's words) is shown under this line.
 */
export function eventSentence(event: EventFacts): string {
  const who = event.actorName ?? 'Someone';
  const game = event.gameName ?? 'a game';
  switch (event.kind) {
    case 'game_assigned':
      return `${who} assigned you ${game}.`;
    case 'version_finished':
      return `${who} finished a version of ${game}.`;
    case 'verdict':
      return `${who} reviewed your version of ${game}.`;
    case 'note':
      return event.fileId === null
        ? `${who} wrote a note on your version of ${game}.`
        : `${who} wrote a note on a file of your version of ${game}.`;
    case 'note_answered':
      return `${who} answered your note on ${game}.`;
  }
}

/**
 * The screen an event is about, or null when it names too little to find one. A game assigned opens that game's
 * versions; a finished version opens the reviewer's files screen of that version; a verdict, a note or an answer
 * opens the version where the reader works on it: the reviewer's files screen for those who review versions, the
 * artist's workbench for the others, at the file's card when the event is about a file.
 */
export function eventLink(event: EventFacts, readerRoleTypeId: number): string | null {
  const { gameId, userGameId, versionId, fileId } = event;
  if (event.kind === 'game_assigned') {
    return userGameId === null ? paths.myGames : `${paths.myGameVersions}?${idsQuery({ userGameId, gameId })}`;
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
