import { tokenize, TokenType, type CSSToken } from '@csstools/css-tokenizer';
import { limits } from '@reskin/contract';
import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import {
  animationElements,
  asciiCompatibleEncodings,
  inertNamespaces,
  namespacedAttributes,
  namespaces,
  svgAttributes,
  svgElements,
} from './svg-vocabulary';

/**
 * What in an artist's SVG could act beyond drawing itself (decisions 0006 and 0019): the play origin serves a
 * version's files to the game, which may open an SVG as a document, where scripts would run. Such SVGs are
 * refused, not cleaned: the artist sees what to remove, and what is stored is exactly what was uploaded.
 *
 * The document is read by an XML parser that resolves namespaces (saxes), as a browser reads it, and every element
 * and attribute is checked against an allowlist by namespace URI and local name (lib/svg-vocabulary.ts). CSS, in
 * `<style>` and in attributes, is read by a CSS tokenizer (@csstools/css-tokenizer), which decodes escapes and
 * drops comments the way browsers do before `url()`, `@import` and `expression()` are looked for.
 */

/** The most parts named in one refusal: the artist fixes those and sees the rest on the next try. */
const maxParts = 10;

/** Embedded raster images, the only `data:` URLs a drawing may reference. */
const rasterDataUrls = [
  'data:image/png',
  'data:image/jpeg',
  'data:image/gif',
  'data:image/webp',
  'data:image/avif',
  'data:image/bmp',
];

/** A URL as a browser's URL parser reads it: C0 controls and spaces trimmed, tabs and newlines removed. */
function urlAsRead(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

/** A reference that stays inside the file: a fragment (`#id`), or an embedded raster image. */
function isInternalReference(value: string): boolean {
  const url = urlAsRead(value);
  if (url.startsWith('#')) return true;
  const lower = url.toLowerCase();
  return rasterDataUrls.some(
    (prefix) => lower.startsWith(prefix) && (lower[prefix.length] === ';' || lower[prefix.length] === ','),
  );
}

/** A value that is, or lists, a script URL once spaces and controls are gone (`java&#9;script:` included). */
function carriesScriptUrl(value: string): boolean {
  if (!value.includes(':')) return false;
  // eslint-disable-next-line no-control-regex
  const squeezed = value.replace(/[\u0000-\u0020]+/g, '').toLowerCase();
  return squeezed.includes('javascript:') || squeezed.includes('vbscript:');
}

/** The parser's complaint, `3:14: unbound namespace prefix: "x".` read as `line 3, column 14: unbound namespace prefix: "x"`. */
function readableError(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.$/, '');
  const at = /^(\d+):(\d+): /.exec(message);
  return (at ? `line ${at[1]}, column ${at[2]}: ${message.slice(at[0].length)}` : message).slice(0, 120);
}

/** Stops the parser at a size limit. */
class TooLarge extends Error {}

/** The unsafe parts found so far, each named once, in words an artist understands. */
class Parts {
  private readonly found = new Set<string>();

  add(part: string): void {
    if (this.found.size < maxParts) this.found.add(part);
  }

  reference(value: string, how: 'href' | 'url()'): void {
    if (!isInternalReference(value))
      this.add(`a reference to ${urlAsRead(value).slice(0, 80) || 'nothing'} (${how})`);
  }

  get list(): string[] {
    return [...this.found];
  }
}

/** CSS functions whose argument is a URL, and image functions whose string arguments are URLs. */
const urlFunctions = new Set(['url', 'src']);
const imageFunctions = new Set([
  'image',
  'image-set',
  '-webkit-image-set',
  'cross-fade',
  '-webkit-cross-fade',
]);

/**
 * Checks CSS (a style sheet, a `style` attribute or a presentation attribute's value) as a browser tokenizes it:
 * escapes decoded (`u\72l(` is `url(`), comments gone. Every URL must be internal; `@import` and `expression()`
 * are refused, and so is a URL the tokenizer cannot read or one built from `var()`.
 */
function checkCss(css: string, parts: Parts): void {
  const tokens: CSSToken[] = tokenize({ css }, { onParseError: () => undefined });
  // The open functions and parentheses, innermost last ('' for a plain parenthesis or block).
  const open: string[] = [];
  for (const token of tokens) {
    switch (token[0]) {
      case TokenType.AtKeyword:
        if (token[4].value.toLowerCase() === 'import') parts.add('a CSS @import');
        break;
      case TokenType.URL:
        parts.reference(token[4].value, 'url()');
        break;
      case TokenType.BadURL:
        parts.add('a CSS url() that cannot be read');
        break;
      case TokenType.Function: {
        const name = token[4].value.toLowerCase();
        if (name === 'expression') parts.add('a CSS expression()');
        if (name === 'var' && open.some((fn) => urlFunctions.has(fn) || imageFunctions.has(fn))) {
          parts.add('a CSS url() built from var()');
        }
        open.push(name);
        break;
      }
      case TokenType.OpenParen:
      case TokenType.OpenSquare:
      case TokenType.OpenCurly:
        open.push('');
        break;
      case TokenType.CloseParen:
      case TokenType.CloseSquare:
      case TokenType.CloseCurly:
        open.pop();
        break;
      case TokenType.String: {
        const inner = open.at(-1) ?? '';
        if (urlFunctions.has(inner) || imageFunctions.has(inner)) parts.reference(token[4].value, 'url()');
        break;
      }
      default:
        break;
    }
  }
}

/** The attribute named `local` without a namespace, if the tag has it. */
function plainAttribute(tag: SaxesTagNS, local: string): SaxesAttributeNS | undefined {
  return Object.values(tag.attributes).find((attribute) => attribute.uri === '' && attribute.local === local);
}

/** An animation may not set an event handler or a link, whatever prefix names it (`xlink:href`, `x:href`). */
function checkAnimation(tag: SaxesTagNS, parts: Parts): void {
  const target = plainAttribute(tag, 'attributeName')?.value.trim();
  if (!target) return;
  const local = target.slice(target.indexOf(':') + 1).toLowerCase();
  if (local.startsWith('on')) parts.add(`an animation that sets an event handler (${target})`);
  else if (local === 'href') parts.add(`an animation that changes a link (${target})`);
}

/** Checks the attributes of an SVG element (`svg`) or of an editor's inert element. */
function checkAttributes(tag: SaxesTagNS, svg: boolean, parts: Parts): void {
  for (const attribute of Object.values(tag.attributes)) {
    const { uri, local, name, value } = attribute;
    if (uri === namespaces.xmlns) continue; // a namespace declaration; what uses it is checked
    if (uri === '' && local === 'href') parts.reference(value, 'href');
    if (uri === namespaces.xlink && local === 'href') parts.reference(value, 'href');
    // An editor's element has no behaviour: what it carries is data.
    if (!svg) continue;
    if (uri === '') {
      if (local.toLowerCase().startsWith('on')) {
        parts.add(`an event handler (${local.toLowerCase()})`);
        continue;
      }
      if (!svgAttributes.has(local) && !local.startsWith('data-') && !local.startsWith('aria-')) {
        parts.add(`an attribute SVG drawings do not use (${local} on <${tag.local}>)`);
      } else if (local !== 'href' && value.includes('(')) {
        // Presentation attributes and `style` are CSS: `fill="url(...)"`. A function needs a literal "(".
        checkCss(value, parts);
      }
    } else if (namespacedAttributes[uri]) {
      if (!namespacedAttributes[uri].has(local)) parts.add(`an attribute SVG drawings do not use (${name})`);
    } else if (!inertNamespaces.has(uri)) {
      parts.add(`an attribute of another language (${name}, ${uri})`);
    }
    if (carriesScriptUrl(value)) parts.add('a javascript: URL');
  }
}

/**
 * The unsafe parts of an SVG document, in words an artist understands (empty when there are none): scripts,
 * event handlers, elements and attributes outside the allowlist (`<foreignObject>` and other embedding elements
 * among them), references to anything outside the file (href or CSS `url()` other than `#fragment` or an embedded
 * raster image, `@import`), `javascript:` URLs, animations of handlers or links, processing instructions,
 * declarations inside `<!DOCTYPE>` (entities), text that is not UTF-8, and XML that cannot be read.
 */
export function unsafeSvgParts(document: string): string[] {
  const { maxChars, maxElements, maxDepth } = limits.svgCheck;
  // A byte order mark is not part of the document (browsers drop it too).
  const svg = document.startsWith('\uFEFF') ? document.slice(1) : document;
  if (svg.length > maxChars) return [`more text than can be checked (over ${maxChars / 1024 / 1024} MB)`];
  const parts = new Parts();
  // A byte sequence that is not UTF-8 reads as U+FFFD here; a browser honouring another declared encoding would
  // read other characters (another prefix, another namespace) than this check saw.
  if (svg.includes('\uFFFD')) parts.add('text that is not valid UTF-8');

  const parser = new SaxesParser({ xmlns: true, forceXMLVersion: true, defaultXMLVersion: '1.0' });
  let elements = 0;
  let depth = 0;
  // Inside an SVG <style>: its depth and its text so far.
  let styleDepth = 0;
  let styleText = '';

  parser.on('xmldecl', ({ encoding }) => {
    const declared = encoding?.toLowerCase();
    if (declared === undefined || declared === 'utf-8' || declared === 'utf8') return;
    if (!asciiCompatibleEncodings.has(declared)) parts.add(`a text encoding other than UTF-8 (${encoding})`);
    // eslint-disable-next-line no-control-regex
    else if (/[^\u0000-\u007f]/.test(svg)) parts.add(`non-ASCII text in a file declared as ${encoding}`);
  });
  parser.on('doctype', (doctype) => {
    // A DOCTYPE naming the SVG DTD is harmless (browsers never load it); an internal subset declares entities
    // or default attributes.
    if (doctype.includes('[')) {
      parts.add(
        doctype.includes('<!ENTITY')
          ? 'an entity declaration (<!ENTITY>)'
          : 'declarations inside <!DOCTYPE> ([...])',
      );
    }
  });
  parser.on('processinginstruction', ({ target }) => {
    parts.add(
      target.toLowerCase() === 'xml-stylesheet'
        ? 'a style sheet instruction (<?xml-stylesheet?>)'
        : `a processing instruction (<?${target}?>)`,
    );
  });
  parser.on('opentag', (tag) => {
    elements++;
    depth++;
    if (elements > maxElements) throw new TooLarge(`more than ${maxElements} elements`);
    if (depth > maxDepth) throw new TooLarge(`elements nested more than ${maxDepth} deep`);
    const svgElement = tag.uri === namespaces.svg;
    if (elements === 1 && !(svgElement && tag.local === 'svg'))
      parts.add(`a root element other than <svg> (<${tag.name}>)`);
    if (styleDepth > 0) parts.add('an element inside <style>');

    if (svgElement) {
      if (!svgElements.has(tag.local)) parts.add(`a <${tag.local}> element`);
      checkAttributes(tag, true, parts);
      if (animationElements.has(tag.local)) checkAnimation(tag, parts);
      if (tag.local === 'style' && styleDepth === 0) {
        styleDepth = depth;
        styleText = '';
      }
    } else if (inertNamespaces.has(tag.uri)) {
      checkAttributes(tag, false, parts);
    } else {
      parts.add(
        tag.uri
          ? `a <${tag.local}> element of another language (${tag.uri})`
          : `a <${tag.local}> element without the SVG namespace`,
      );
    }
  });
  parser.on('text', (text) => {
    if (styleDepth > 0) styleText += text;
  });
  parser.on('cdata', (text) => {
    if (styleDepth > 0) styleText += text;
  });
  parser.on('closetag', () => {
    if (depth === styleDepth) {
      checkCss(styleText, parts);
      styleDepth = 0;
      styleText = '';
    }
    depth--;
  });
  parser.on('error', (error) => {
    throw error;
  });

  try {
    parser.write(svg).close();
  } catch (error) {
    if (error instanceof TooLarge) parts.add(error.message);
    else parts.add(`XML that cannot be read (${readableError(error)})`);
  }
  return parts.list;
}
