import { describe, expect, it } from 'vitest';
import { unsafeSvgParts } from './svg-safety';

const svg = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"${attributes}>${inner}</svg>`;

describe("unsafe parts of an artist's SVG", () => {
  it('finds nothing in a drawing with internal references and embedded rasters', () => {
    const clean = svg(
      '<defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/>' +
        '<use href="#g"/><image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/><style>rect { fill: url(#g) }</style>',
    );
    expect(unsafeSvgParts(clean)).toEqual([]);
  });

  it('names scripts, handlers, embedded documents, outside references and entities', () => {
    expect(unsafeSvgParts(svg('<script>alert(1)</script>'))).toEqual(['a <script> element']);
    expect(unsafeSvgParts(svg('<svg:script>x</svg:script>'))).toEqual(['a <script> element']);
    expect(unsafeSvgParts(svg('', ' onload="x()"'))).toEqual(['an event handler (onload)']);
    expect(unsafeSvgParts(svg('<foreignObject/>'))).toEqual(['a <foreignObject> element']);
    expect(unsafeSvgParts(svg('<use xlink:href="other.svg#a"/>'))).toEqual(['a reference to other.svg#a (href)']);
    expect(unsafeSvgParts(svg('<a href="javascript:x()"><rect/></a>'))).toContain('a javascript: URL');
    expect(unsafeSvgParts(svg('<style>@import "x.css";</style>'))).toEqual(['a CSS @import']);
    expect(unsafeSvgParts(svg('<rect style="fill: url(https://x.example/p.png)"/>'))).toEqual(['a reference to https://x.example/p.png (url())']);
    expect(unsafeSvgParts(svg('<image href="data:image/svg+xml;base64,PHN2Zz4=" />'))).toHaveLength(1);
    expect(unsafeSvgParts('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + svg('&x;'))).toEqual(['an entity declaration (<!ENTITY>)']);
  });

  it('sees through character references', () => {
    expect(unsafeSvgParts(svg('<a href="&#106;avascript&#x3a;x()"><rect/></a>'))).toContain('a javascript: URL');
  });
});
