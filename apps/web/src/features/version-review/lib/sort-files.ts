/** Two rows in the order of their updatedAt (ISO strings compare as times), older first. */
export const byUpdatedAt = (a: { updatedAt: string }, b: { updatedAt: string }) =>
  Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
