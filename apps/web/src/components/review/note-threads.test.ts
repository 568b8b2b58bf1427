import type { Note } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { notesCountLabel, resolvedText, threadsOf } from './note-threads';

const note = (over: Partial<Note>): Note => ({
  id: 1,
  versionId: 7,
  fileId: null,
  path: null,
  frame: null,
  replyTo: null,
  authorId: 1,
  authorName: 'admin',
  text: 'Brighter, please.',
  resolved: false,
  resolvedAt: null,
  resolvedByName: null,
  resolvedHow: null,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
  ...over,
});

describe('note threads', () => {
  const notes = [
    note({ id: 1 }),
    note({ id: 2, fileId: 5, path: 'img/a.png' }),
    note({ id: 3, fileId: 5, path: 'img/a.png', frame: 'hero_1' }),
    note({ id: 4, fileId: 5, replyTo: 2, authorName: 'ana' }),
    note({ id: 6, fileId: 6, resolved: true, resolvedHow: 'replaced', resolvedByName: 'ana' }),
  ];

  it('keeps the version-wide notes apart from the files', () => {
    expect(threadsOf(notes, { fileId: null }).map((t) => t.note.id)).toEqual([1]);
  });

  it("gives a file's card its own notes and its frames', each with its answers", () => {
    const threads = threadsOf(notes, { fileId: 5 });
    expect(threads.map((t) => t.note.id)).toEqual([2, 3]);
    expect(threads[0]?.answers.map((a) => a.id)).toEqual([4]);
  });

  it("gives a frame only that frame's notes", () => {
    expect(threadsOf(notes, { fileId: 5, frame: 'hero_1' }).map((t) => t.note.id)).toEqual([3]);
  });

  it('counts the open threads, else all of them', () => {
    expect(notesCountLabel(threadsOf(notes, { fileId: 5 }))).toBe('2 open');
    expect(notesCountLabel(threadsOf(notes, { fileId: 6 }))).toBe('1');
    expect(notesCountLabel(threadsOf(notes, { fileId: 99 }))).toBe('');
  });

  it('says how a note was resolved', () => {
    expect(resolvedText(notes[4] as Note)).toBe('Resolved by a replacement of the file (ana)');
    expect(resolvedText(notes[0] as Note)).toBeNull();
  });
});
