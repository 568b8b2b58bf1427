import { readdirSync, readFileSync } from 'node:fs';
import { limits } from '@reskin/contract';
import { describe, expect, it } from 'vitest';
import { unsafeSvgParts } from './svg-safety';

const svg = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"${attributes}>${inner}</svg>`;
const png = 'data:image/png;base64,iVBORw0KGgo=';

/**
 * Each case was accepted by the old regular-expression check or is a classic way to run script or
 * reach outside the file from an SVG; every one must be refused.
 */
const refused: [name: string, document: string][] = [
  // The audit's bypasses
  [
    'a prefix with a dot bound to SVG',
    svg('<a.b:script xmlns:a.b="http://www.w3.org/2000/svg">alert(1)</a.b:script>'),
  ],
  [
    'a non-ASCII prefix bound to SVG',
    svg('<é:script xmlns:é="http://www.w3.org/2000/svg">alert(1)</é:script>'),
  ],
  ['a CSS escape in url()', svg('<style>rect { fill: u\\72l(http://evil.example/x) }</style>')],
  [
    'a CSS escape of the whole function name',
    svg('<style>rect { fill: \\75\\72\\6c(http://evil.example/x) }</style>'),
  ],
  ['<set> of onload', svg('<set attributeName="onload" to="alert(1)"/>')],
  [
    '<animate> values with a tab in javascript:',
    svg('<a href="#x"><animate attributeName="href" values="#x;java&#9;script:alert(1)"/></a>'),
  ],
  [
    '<animate> of a harmless attribute with javascript: values',
    svg('<rect><animate attributeName="x" values="java&#x09;script:alert(1)"/></rect>'),
  ],
  [
    '<?xml-stylesheet?>',
    '<?xml version="1.0"?><?xml-stylesheet href="#s" type="text/css"?>' + svg('<rect/>'),
  ],
  // Scripts and handlers
  ['a <script>', svg('<script>alert(1)</script>')],
  ['a <script> with CDATA', svg('<script><![CDATA[alert(document.domain)]]></script>')],
  ['an svg:-prefixed <script>', svg('<svg:script xmlns:svg="http://www.w3.org/2000/svg">x</svg:script>')],
  ['a <script> with an external source', svg('<script href="https://evil.example/x.js"/>')],
  ['an XHTML <script>', svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>')],
  [
    'an XHTML default namespace <script>',
    svg('<g><script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script></g>'),
  ],
  ['an onload on the root', svg('<rect/>', ' onload="alert(1)"')],
  ['an onclick on a shape', svg('<rect onclick="alert(1)"/>')],
  ['an upper-case ONLOAD', svg('<rect/>', ' ONLOAD="alert(1)"')],
  [
    'an onbegin on an animation',
    svg('<rect><animate attributeName="x" onbegin="alert(1)" dur="1s"/></rect>'),
  ],
  ['an onerror on an image', svg(`<image href="${png}" onerror="alert(1)"/>`)],
  ['<set> of onclick with a prefix', svg('<set attributeName="xlink:onclick" to="alert(1)"/>')],
  ['<set> of href', svg('<a><set attributeName="href" to="https://evil.example/"/><rect/></a>')],
  ['<set> of xlink:href', svg('<a><set attributeName="xlink:href" to="#a"/><rect/></a>')],
  [
    '<animate> of href through another prefix',
    svg('<a xmlns:l="http://www.w3.org/1999/xlink"><animate attributeName="l:href" values="#a"/></a>'),
  ],
  ['<animateTransform> of onmouseover', svg('<animateTransform attributeName="onmouseover" to="alert(1)"/>')],
  ['a handler element', svg('<handler type="application/ecmascript">alert(1)</handler>')],
  ['a listener element', svg('<listener event="click" handler="#h"/>')],
  // Links and references
  ['javascript: in href', svg('<a href="javascript:alert(1)"><rect/></a>')],
  ['javascript: in xlink:href', svg('<a xlink:href="javascript:alert(1)"><rect/></a>')],
  ['javascript: behind character references', svg('<a href="&#106;avascript&#x3a;alert(1)"><rect/></a>')],
  ['javascript: behind spaces and a newline', svg('<a href=" java&#10;script:alert(1)"><rect/></a>')],
  ['javascript: in upper case', svg('<a href="JAVASCRIPT:alert(1)"><rect/></a>')],
  ['a link to another site', svg('<a href="https://evil.example/"><rect/></a>')],
  ['a protocol-relative link', svg('<a href="//evil.example/"><rect/></a>')],
  ['an external <use>', svg('<use xlink:href="other.svg#a"/>')],
  ['an external <use> by href', svg('<use href="https://evil.example/sprite.svg#a"/>')],
  ['an external <image>', svg('<image href="https://evil.example/x.png" width="1" height="1"/>')],
  ['an <image> of SVG data', svg('<image href="data:image/svg+xml;base64,PHN2Zz4=" width="1" height="1"/>')],
  ['an <image> of HTML data', svg('<image href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"/>')],
  ['an external <feImage>', svg('<filter id="f"><feImage href="https://evil.example/x.png"/></filter>')],
  [
    'an external gradient template',
    svg('<linearGradient id="g" xlink:href="https://evil.example/g.svg#g"/>'),
  ],
  ['an external <textPath>', svg('<text><textPath href="other.svg#p">x</textPath></text>')],
  ['an empty href', svg('<use href=""/>')],
  ['an xml:base rebasing links', svg('<use href="#a" xml:base="https://evil.example/"/>')],
  // Embedding elements
  [
    'a <foreignObject>',
    svg(
      '<foreignObject width="10" height="10"><p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject>',
    ),
  ],
  [
    'an XHTML <iframe>',
    svg('<h:iframe xmlns:h="http://www.w3.org/1999/xhtml" src="https://evil.example/"/>'),
  ],
  [
    'an XHTML <img> with onerror',
    svg('<h:img xmlns:h="http://www.w3.org/1999/xhtml" src="x" onerror="alert(1)"/>'),
  ],
  ['an <embed>', svg('<embed src="https://evil.example/x.swf"/>')],
  ['an <object>', svg('<object data="https://evil.example/x.html"/>')],
  ['a MathML element', svg('<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mi>x</m:mi></m:math>')],
  ['an element of an unknown namespace', svg('<x:thing xmlns:x="https://evil.example/ns"/>')],
  // CSS
  ['url() in a style attribute', svg('<rect style="fill: url(https://evil.example/p.png)"/>')],
  ['url() in a presentation attribute', svg('<rect fill="url(https://evil.example/p.svg#g)"/>')],
  [
    'url() with an escape in a style attribute',
    svg('<rect style="fill: u\\rl(https://evil.example/p.png)"/>'),
  ],
  [
    'url() in a <style> with a quoted URL',
    svg('<style>rect { fill: url("https://evil.example/p.png") }</style>'),
  ],
  [
    'an image-set() from elsewhere',
    svg('<style>rect { background: image-set("https://evil.example/a.png" 1x) }</style>'),
  ],
  ['@import', svg('<style>@import "x.css";</style>')],
  ['@import with an escape', svg('<style>@\\69mport url(https://evil.example/x.css);</style>')],
  ['@import in CDATA', svg('<style><![CDATA[@import url(https://evil.example/x.css);]]></style>')],
  ['@import after a comment', svg('<style>/* hi */@import/**/"x.css";</style>')],
  ['expression()', svg('<style>rect { width: expression(alert(1)) }</style>')],
  ['expression() with an escape', svg('<rect style="width: e\\78pression(alert(1))"/>')],
  [
    'a @font-face from elsewhere',
    svg('<style>@font-face { font-family: X; src: url(https://evil.example/x.woff2) }</style>'),
  ],
  [
    'a data: font',
    svg('<style>@font-face { font-family: X; src: url(data:font/woff2;base64,AAAA) }</style>'),
  ],
  ['a cursor from elsewhere', svg('<rect cursor="url(https://evil.example/c.cur), auto"/>')],
  [
    'a url() built from var()',
    svg('<style>rect { --u: "https://evil.example/a.png"; background: image-set(var(--u) 1x) }</style>'),
  ],
  ['a bad url()', svg('<style>rect { fill: url(https://evil.example/a b) }</style>')],
  [
    'a CSS url() with a newline escape in the scheme',
    svg('<style>rect { fill: url(java\\\nscript:alert(1)) }</style>'),
  ],
  // Declarations and instructions
  [
    'an entity declaration',
    '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + svg('<text>&x;</text>'),
  ],
  [
    'an entity that expands to a script',
    '<!DOCTYPE svg [<!ENTITY s "<script>alert(1)</script>">]>' + svg('&s;'),
  ],
  ['a parameter entity', '<!DOCTYPE svg [<!ENTITY % p SYSTEM "https://evil.example/x.dtd"> %p;]>' + svg('')],
  [
    'a default attribute from the internal subset',
    '<!DOCTYPE svg [<!ATTLIST svg onload CDATA "alert(1)">]>' + svg(''),
  ],
  ['another processing instruction', '<?php echo 1; ?>' + svg('')],
  [
    'a processing instruction inside the drawing',
    svg('<?xml-stylesheet href="https://evil.example/x.css"?><rect/>'),
  ],
  // Reading
  ['an unbound prefix', svg('<x:script>alert(1)</x:script>')],
  ['a mismatched end tag', svg('<g><rect></g>')],
  ['an undefined entity', svg('<text>&nbsp;</text>')],
  ['text after the root', svg('') + '<script>alert(1)</script>'],
  ['a root that is not <svg>', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'],
  ['an <svg> without the SVG namespace', '<svg width="10" height="10"><script>alert(1)</script></svg>'],
  ['a UTF-16 declaration', '<?xml version="1.0" encoding="UTF-16"?>' + svg('<rect/>')],
  ['bytes that are not UTF-8', svg('<text>caf\uFFFD</text>')],
  [
    'non-ASCII text declared as Latin-1',
    '<?xml version="1.0" encoding="ISO-8859-1"?>' + svg('<é:script xmlns:é="http://www.w3.org/2000/svg"/>'),
  ],
  ['too deep', svg('<g>'.repeat(limits.svgCheck.maxDepth) + '</g>'.repeat(limits.svgCheck.maxDepth))],
];

describe("unsafe parts of an artist's SVG", () => {
  it(`refuses every one of ${refused.length} unsafe documents`, () => {
    expect(refused.length).toBeGreaterThanOrEqual(60);
    const accepted = refused
      .filter(([, document]) => unsafeSvgParts(document).length === 0)
      .map(([name]) => name);
    expect(accepted).toEqual([]);
  });

  it('names what it found in words an artist understands', () => {
    expect(unsafeSvgParts(svg('<script>alert(1)</script>'))).toEqual(['a <script> element']);
    expect(unsafeSvgParts(svg('<a.b:script xmlns:a.b="http://www.w3.org/2000/svg">x</a.b:script>'))).toEqual([
      'a <script> element',
    ]);
    expect(unsafeSvgParts(svg('', ' onload="x()"'))).toEqual(['an event handler (onload)']);
    expect(unsafeSvgParts(svg('<foreignObject/>'))).toEqual(['a <foreignObject> element']);
    expect(unsafeSvgParts(svg('<use xlink:href="other.svg#a"/>'))).toEqual([
      'a reference to other.svg#a (href)',
    ]);
    expect(unsafeSvgParts(svg('<a href="javascript:x()"><rect/></a>'))).toContain('a javascript: URL');
    expect(unsafeSvgParts(svg('<style>@import "x.css";</style>'))).toEqual(['a CSS @import']);
    expect(unsafeSvgParts(svg('<rect style="fill: url(https://x.example/p.png)"/>'))).toEqual([
      'a reference to https://x.example/p.png (url())',
    ]);
    expect(unsafeSvgParts(svg('<style>rect { fill: u\\72l(http://x.example/a) }</style>'))).toEqual([
      'a reference to http://x.example/a (url())',
    ]);
    expect(unsafeSvgParts(svg('<set attributeName="onload" to="x()"/>'))).toEqual([
      'an animation that sets an event handler (onload)',
    ]);
    expect(unsafeSvgParts('<?xml-stylesheet href="#s"?>' + svg(''))).toEqual([
      'a style sheet instruction (<?xml-stylesheet?>)',
    ]);
    expect(unsafeSvgParts('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + svg('&x;'))).toContain(
      'an entity declaration (<!ENTITY>)',
    );
    expect(unsafeSvgParts(svg('<x:script/>'))).toEqual([
      expect.stringMatching(
        /^XML that cannot be read \(line 1, column \d+: unbound namespace prefix: "x"\)$/,
      ),
    ]);
    expect(unsafeSvgParts('x'.repeat(limits.svgCheck.maxChars + 1))).toEqual([
      `more text than can be checked (over ${limits.svgCheck.maxChars / 1024 / 1024} MB)`,
    ]);
  });

  it('finds nothing in a drawing with internal references, embedded rasters, animation and editor data', () => {
    const clean = svg(
      '<defs><linearGradient id="g"><stop offset="0"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/>' +
        `<use href="#g"/><image xlink:href="${png}" width="1" height="1"/><style>rect { fill: url(#g) } /* url(x) */</style>` +
        '<circle r="2"><animate attributeName="r" values="2;4;2" dur="1s" repeatCount="indefinite"/></circle>' +
        '<g xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" inkscape:label="Layer 1" inkscape:groupmode="layer"/>',
    );
    expect(unsafeSvgParts(clean)).toEqual([]);
    // The SVG 1.1 DOCTYPE without declarations, a BOM, and the ASCII-compatible encodings.
    const doctype =
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">';
    expect(
      unsafeSvgParts(`\uFEFF<?xml version="1.0" encoding="iso-8859-1"?>${doctype}${svg('<rect/>')}`),
    ).toEqual([]);
  });

  const fixtures = new URL('../../../test/fixtures/svg/', import.meta.url);
  const files = readdirSync(fixtures).filter((name) => name.endsWith('.svg'));

  it(`accepts ${files.length} real-world drawings from public icon sets, Inkscape and Illustrator (test/fixtures/svg)`, () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    const refusedFiles = files
      .map((name) => [name, unsafeSvgParts(readFileSync(new URL(name, fixtures), 'utf8'))] as const)
      .filter(([, parts]) => parts.length > 0);
    expect(refusedFiles).toEqual([]);
  });
});
