import type { Note } from '@reskin/contract';

/** Where a note sits: the version as a whole (no fileId), one of its files, or one frame of a sprite sheet. */
export interface NoteTarget {
  fileId: number | null;
  frame?: string | null;
}

/** A note and its answers (notes whose `replyTo` is its id), oldest first. */
export interface NoteThread {
  note: Note;
  answers: Note[];
}

const byId = (a: Note, b: Note) => a.id - b.id;

/** A version's notes as threads, grouped by file once per list of notes (every card of a screen reads the same list). */
interface NoteIndex {
  /** Threads on each file (`null`: the version), oldest first. */
  byFile: Map<number | null, NoteThread[]>;
}

const indexes = new WeakMap<readonly Note[], NoteIndex>();

function indexOf(notes: readonly Note[]): NoteIndex {
  let index = indexes.get(notes);
  if (index) return index;
  const answersOf = new Map<number, Note[]>();
  for (const note of notes) {
    if (note.replyTo === null) continue;
    const list = answersOf.get(note.replyTo) ?? [];
    list.push(note);
    answersOf.set(note.replyTo, list);
  }
  const byFile = new Map<number | null, NoteThread[]>();
  for (const note of [...notes].sort(byId)) {
    if (note.replyTo !== null) continue;
    const list = byFile.get(note.fileId) ?? [];
    list.push({ note, answers: (answersOf.get(note.id) ?? []).sort(byId) });
    byFile.set(note.fileId, list);
  }
  index = { byFile };
  indexes.set(notes, index);
  return index;
}

/**
 * The notes on a target, as threads: the notes that answer none, each with its answers. A file's target holds the
 * notes on the file itself and, unless `frame` names one, those on its frames (the file's card shows them all); a
 * frame's target only that frame's. The version's target (fileId null) holds only the version-wide notes.
 */
export function threadsOf(notes: readonly Note[], target: NoteTarget): NoteThread[] {
  const onFile = indexOf(notes).byFile.get(target.fileId) ?? [];
  if (target.frame === undefined || target.frame === null) return onFile;
  return onFile.filter((thread) => thread.note.frame === target.frame);
}

/** How many of the threads are open (their first note not resolved). */
export const openCount = (threads: readonly NoteThread[]) =>
  threads.filter((thread) => !thread.note.resolved).length;

/** The count of open notes a button shows: '2 open', else the number of notes, else nothing. */
export function notesCountLabel(threads: readonly NoteThread[]): string {
  const open = openCount(threads);
  if (open > 0) return `${open} open`;
  return threads.length > 0 ? String(threads.length) : '';
}

/** Why a note is resolved, in words ('Resolved by ana (answered)'), or null for an open note. */
export function resolvedText(note: Note): string | null {
  if (!note.resolved) return null;
  const how = { marked: '', answered: ' by an answer', replaced: ' by a replacement of the file' }[
    note.resolvedHow ?? 'marked'
  ];
  return note.resolvedByName ? `Resolved${how} (${note.resolvedByName})` : `Resolved${how}`;
}
