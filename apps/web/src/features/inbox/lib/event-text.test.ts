import { RoleType, type InboxEvent } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import { eventLink, eventSentence } from './event-text';

const event = (over: Partial<InboxEvent>): InboxEvent => ({
  id: 1,
  kind: 'note',
  actorId: 1,
  actorName: 'admin',
  gameId: 3,
  gameName: 'Star Catcher',
  userGameId: 4,
  versionId: 9,
  fileId: null,
  noteId: 11,
  text: '',
  versionOwner: 'yours',
  versionOwnerName: 'ana',
  createdAt: '2026-11-26T09:00:00.000Z',
  readAt: null,
  ...over,
});

describe('inbox events in words', () => {
  it('says who did what on which game', () => {
    expect(eventSentence(event({ kind: 'game_assigned' }))).toBe('admin assigned you Star Catcher.');
    expect(eventSentence(event({ kind: 'version_finished', actorName: 'ana' }))).toBe(
      'ana finished a version of Star Catcher.',
    );
    expect(eventSentence(event({ kind: 'verdict' }))).toBe('admin reviewed your version of Star Catcher.');
    expect(eventSentence(event({ kind: 'note', fileId: 5 }))).toBe(
      'admin wrote a note on a file of your version of Star Catcher.',
    );
    expect(eventSentence(event({ kind: 'note_answered', actorName: null }))).toBe(
      'Someone answered your note on Star Catcher.',
    );
  });

  it("names whose version it is when it is not the reader's (decision 0052)", () => {
    // An artist's own question, told to a reviewer.
    const question = {
      kind: 'note' as const,
      actorName: 'ana',
      versionOwner: 'others' as const,
      versionOwnerName: 'ana',
    };
    expect(eventSentence(event({ ...question, fileId: 5 }))).toBe(
      'ana wrote a note on a file of their version of Star Catcher.',
    );
    expect(eventSentence(event(question))).toBe('ana wrote a note on their version of Star Catcher.');
    // Another reviewer's note on someone else's version.
    expect(
      eventSentence(
        event({
          kind: 'note',
          actorName: 'rita',
          versionOwner: 'others',
          versionOwnerName: 'ana',
          fileId: 5,
        }),
      ),
    ).toBe("rita wrote a note on a file of ana's version of Star Catcher.");
  });

  it('says a failed generation, and opens its files screen (decision 0052)', () => {
    const failed = event({
      kind: 'generation_failed',
      actorId: null,
      actorName: null,
      versionId: null,
      userGameId: null,
      versionOwner: null,
    });
    expect(eventSentence(failed)).toBe('Star Catcher could not be generated.');
    expect(eventLink(failed, RoleType.Admin)).toBe(`${paths.gameFiles}?gameId=3`);
  });
});

describe('inbox event links', () => {
  it("opens an assigned game's versions", () => {
    expect(eventLink(event({ kind: 'game_assigned', versionId: null }), RoleType.User)).toBe(
      `${paths.myGameVersions}?gameId=3&userGameId=4`,
    );
  });

  it("opens a finished version on the reviewer's files screen", () => {
    expect(eventLink(event({ kind: 'version_finished' }), RoleType.Admin)).toBe(
      `${paths.userGameVersionFiles}?versionId=9&gameId=3&userGameId=4`,
    );
  });

  it("opens a note on the artist's workbench at the file's card", () => {
    expect(eventLink(event({ kind: 'note', fileId: 5 }), RoleType.User)).toBe(
      `${paths.workbench}?versionId=9&gameId=3&userGameId=4&fileId=5`,
    );
  });

  it("opens an answer to a reviewer's note on the review screen", () => {
    expect(eventLink(event({ kind: 'note_answered', fileId: 5 }), RoleType.Admin)).toBe(
      `${paths.userGameVersionFiles}?versionId=9&gameId=3&userGameId=4&fileId=5`,
    );
  });

  it('has no link when the event names no version', () => {
    expect(eventLink(event({ kind: 'verdict', versionId: null }), RoleType.User)).toBeNull();
  });
});
