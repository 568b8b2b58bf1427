/**
 * What in an artist's SVG could act beyond drawing itself (decision 0006): the play origin serves a
 * version's files to the game, which may open an SVG as a document, where scripts run. Such SVGs are refused,
 * not cleaned: the artist sees what to remove, and what is stored is exactly what was uploaded.
 */

/** Decodes XML character references, so `&#106;avascript:` is seen as what a browser reads. */
function decodeReferences(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
    .replace(/&#([0-9]+);?/g, (_, dec: string) => String.fromCodePoint(Math.min(parseInt(dec, 10), 0x10ffff)))
    .replace(/&(quot|apos|lt|gt|amp);/g, (_, name: string) => ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' })[name] ?? '');
}

/** A reference that stays inside the file: a fragment, or an embedded raster image. */
const internalReference = /^\s*(#|data:image\/(png|jpeg|gif|webp|avif|bmp);)/i;

/**
 * The unsafe parts of an SVG document, in words an artist understands (empty when there are none): scripts,
 * event handlers, elements that embed other documents, references to anything outside the file (links, other
 * files, external CSS), `javascript:` URLs and entity declarations.
 */
export function unsafeSvgParts(svg: string): string[] {
  const text = decodeReferences(svg);
  const found = new Set<string>();
  for (const match of text.matchAll(/<\s*(?:[\w-]+:)?(script|foreignObject|iframe|embed|object|handler|listener)\b/gi)) {
    found.add(`a <${match[1]}> element`);
  }
  for (const match of text.matchAll(/<[^>]*?\s(?:[\w-]+:)?(on[a-z]+)\s*=/gi)) {
    found.add(`an event handler (${match[1]!.toLowerCase()})`);
  }
  for (const match of text.matchAll(/\s(?:[\w-]+:)?href\s*=\s*("([^"]*)"|'([^']*)')/gi)) {
    const target = match[2] ?? match[3] ?? '';
    if (!internalReference.test(target)) found.add(`a reference to ${target.trim().slice(0, 80) || 'nothing'} (href)`);
  }
  for (const match of text.matchAll(/url\(\s*(["']?)([^)"']*)\1\s*\)/gi)) {
    if (!internalReference.test(match[2]!)) found.add(`a reference to ${match[2]!.trim().slice(0, 80)} (url())`);
  }
  if (/@import\b/i.test(text)) found.add('a CSS @import');
  if (/javascript\s*:/i.test(text)) found.add('a javascript: URL');
  if (/<!ENTITY\b/i.test(text)) found.add('an entity declaration (<!ENTITY>)');
  return [...found];
}
