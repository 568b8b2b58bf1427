/**
 * The one definition of game file kinds (STYLE.md "One definition per rule"): which files are images, which
 * are sounds, and what the generated copies of an image are. The server's paths, inspection, generation and
 * play origin and the web's drop checks and workbench all read it; a new image type is one entry here (and,
 * if sharp cannot read it, a decoder on the server).
 */

/** How the server treats a game file: images get copies and can be replaced, sounds can be replaced. */
export type FileKind = 'image' | 'audio' | 'other';

/** What the skeleton and watermarked copies of an image are encoded as. */
export type CopyFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'avif' | 'svg';

export interface ImageFormat {
  /** File name extensions, lower case, without the dot. */
  extensions: readonly string[];
  /** MIME types a browser may give a file of this format (the first is the one the play origin sends). */
  mimeTypes: readonly string[];
  /**
   * The format of its skeleton and watermarked copies: the image's own where the server can write it, else
   * PNG, which every browser renders (the play origin then sends `image/png` under the original's path).
   */
  copiesAs: CopyFormat;
}

/** The image formats the server inspects and makes copies of, by sharp's format name. */
export const imageFormats = {
  png: { extensions: ['png'], mimeTypes: ['image/png'], copiesAs: 'png' },
  jpeg: { extensions: ['jpg', 'jpeg'], mimeTypes: ['image/jpeg'], copiesAs: 'jpeg' },
  gif: { extensions: ['gif'], mimeTypes: ['image/gif'], copiesAs: 'gif' },
  webp: { extensions: ['webp'], mimeTypes: ['image/webp'], copiesAs: 'webp' },
  avif: { extensions: ['avif'], mimeTypes: ['image/avif'], copiesAs: 'avif' },
  bmp: { extensions: ['bmp'], mimeTypes: ['image/bmp', 'image/x-ms-bmp'], copiesAs: 'png' },
  ico: { extensions: ['ico'], mimeTypes: ['image/vnd.microsoft.icon', 'image/x-icon'], copiesAs: 'png' },
  /**
   * Only a drawable SVG (one with a pixel size) is an image; any other .svg (a web font of `<font>` and
   * `<glyph>`, an empty file) is an 'other' file. Its copies are SVG documents of the same width, height and
   * viewBox: the skeleton empty, the watermark a rendered PNG with the mark embedded (nothing to delete).
   */
  svg: { extensions: ['svg'], mimeTypes: ['image/svg+xml'], copiesAs: 'svg' },
} as const satisfies Record<string, ImageFormat>;

export type ImageFormatName = keyof typeof imageFormats;

/** Sound formats a version may replace (the server checks the content is audio). */
export const audioFormat = {
  extensions: ['ogg', 'oga', 'opus', 'mp3', 'wav', 'm4a', 'aac', 'flac', 'weba'],
  mimeTypes: [
    'audio/ogg',
    'audio/mpeg',
    'audio/wav',
    'audio/x-wav',
    'audio/mp4',
    'audio/aac',
    'audio/flac',
    'audio/x-flac',
    'audio/webm',
  ],
} as const;

/** The MIME type of each copy format: what the play origin sends for a skeleton or watermarked copy. */
export const copyMimeTypes: Record<CopyFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** The lower-case extension of a file name or path, without the dot ('' when none). */
export function extensionOfName(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

const formatByExtension = new Map<string, ImageFormatName>(
  Object.entries(imageFormats).flatMap(([name, format]) =>
    format.extensions.map((ext) => [ext, name as ImageFormatName] as const),
  ),
);
const formatByMimeType = new Map<string, ImageFormatName>(
  Object.entries(imageFormats).flatMap(([name, format]) =>
    format.mimeTypes.map((type) => [type, name as ImageFormatName] as const),
  ),
);
const audioExtensions = new Set<string>(audioFormat.extensions);

/** The image format a name promises by its extension (a `.png.gz` promises none), else undefined. */
export function imageFormatOfName(name: string): ImageFormatName | undefined {
  return formatByExtension.get(extensionOfName(name));
}

/** The kind a name promises by its extension alone. An .svg may still turn out 'other' (see fileKindOf). */
export function kindOfName(name: string): FileKind {
  const ext = extensionOfName(name);
  if (formatByExtension.has(ext)) return 'image';
  if (audioExtensions.has(ext)) return 'audio';
  return 'other';
}

/**
 * The kind of a stored game file. An image is a file with an image extension whose pixel size the server
 * read at upload; a file with an image extension but no size (an SVG font) is 'other': stored and served as
 * is, with no copies, never offered for replacement.
 */
export function fileKindOf(file: { path: string; width: number | null }): FileKind {
  const kind = kindOfName(file.path);
  return kind === 'image' && file.width === null ? 'other' : kind;
}

/** What a browser says a picked or dropped file is: by its MIME type, or its extension where it gives none. */
export function kindOfPickedFile(file: { name: string; type: string }): FileKind {
  if (file.type === '') return kindOfName(file.name);
  if (formatByMimeType.has(file.type)) return 'image';
  if (file.type.startsWith('audio/') || (audioFormat.mimeTypes as readonly string[]).includes(file.type))
    return 'audio';
  return 'other';
}

/** The format of an image's skeleton and watermarked copies, and the type they are served with. */
export function copyFormatOf(path: string): { format: CopyFormat; mimeType: string } | undefined {
  const format = imageFormatOfName(path);
  if (!format) return undefined;
  const copiesAs = imageFormats[format].copiesAs;
  return { format: copiesAs, mimeType: copyMimeTypes[copiesAs] };
}

/** The extensions a game's index (its start file) may have: a page the browser renders. */
export const indexExtensions = ['html', 'htm'] as const;

/**
 * Whether a game file may be marked as the index: only an HTML page can start a game. The server
 * refuses any other file (422) and the files screen enables 'Mark index' only on these; guessIndex picks among them.
 */
export function canBeIndex(path: string): boolean {
  return (indexExtensions as readonly string[]).includes(extensionOfName(path));
}

/** Why a file cannot be the index (the server's 422 detail, and the disabled button's title). */
export const indexRuleMessage = 'Only an .html file can be the index (the page a game starts from).';
