// The game upload's unit (a chosen file or a zip entry unpacked in the browser), in lib/ beside the zip reader
// (zip-game.ts) that makes them, which the batch replace uses too.

/** One file of an upload: its path inside the game, its size, and its bytes, read only when its batch is sent. */
export interface UploadItem {
  fullPath: string;
  size: number;
  /** A chosen file's bytes, or a zip entry unpacked in the browser. May reject (a broken entry). */
  read: () => Promise<Blob>;
}

/** A chosen file as an upload item. */
export const fileItem = (file: File, fullPath: string): UploadItem => ({
  fullPath,
  size: file.size,
  read: () => Promise.resolve(file),
});
