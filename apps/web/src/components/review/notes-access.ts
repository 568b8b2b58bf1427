import { createContext, useContext } from 'react';

/**
 * Why the notes under it cannot be written, answered or resolved by the reader (an artist's locked or
 * disabled version, `versionChangeRefusal(…, 'note')`), or undefined when they can. The workbench provides it
 * around its notes; the reviewer's screens need none (a reviewer always writes notes).
 */
export const NotesRefusal = createContext<string | undefined>(undefined);

export const useNotesRefusal = () => useContext(NotesRefusal);
