/**
 * What an artist's SVG may contain (decision 0019): elements and attributes by namespace URI and local name,
 * never by prefix, since a prefix is only a local alias (`<a.b:script>` is an SVG script when `a.b` is bound to the
 * SVG namespace). Everything else is refused by `unsafeSvgParts` (lib/svg-safety.ts).
 */

export const namespaces = {
  svg: 'http://www.w3.org/2000/svg',
  xlink: 'http://www.w3.org/1999/xlink',
  xml: 'http://www.w3.org/XML/1998/namespace',
  xmlns: 'http://www.w3.org/2000/xmlns/',
} as const;

/**
 * Editors' own data: Inkscape and Sodipodi (layers, guides, the page), Adobe Illustrator, Sketch, Affinity
 * (serif), Boxy SVG, Krita and Vectornator, and the RDF / Creative Commons / Dublin Core licence block Inkscape
 * writes into `<metadata>`. Browsers give elements and attributes of these namespaces no behaviour at all (an
 * element of an unknown namespace is a bare `Element`: not drawn, no event handlers, no links), so they are kept
 * as inert data: refusing them would refuse nearly every file an editor saves. Elements of the SVG, XHTML or
 * MathML namespaces inside them are still checked like any other.
 */
export const inertNamespaces: ReadonlySet<string> = new Set([
  'http://www.inkscape.org/namespaces/inkscape',
  'http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd',
  'http://ns.adobe.com/AdobeIllustrator/10.0/',
  'http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/',
  'http://ns.adobe.com/Extensibility/1.0/',
  'http://ns.adobe.com/Graphs/1.0/',
  'http://ns.adobe.com/Variables/1.0/',
  'http://ns.adobe.com/SaveForWeb/1.0/',
  'http://ns.adobe.com/ImageReplacement/1.0/',
  'http://ns.adobe.com/Flows/1.0/',
  'http://ns.adobe.com/GenericCustomNamespace/1.0/',
  'http://ns.adobe.com/xap/1.0/',
  'http://www.bohemiancoding.com/sketch/ns',
  'http://www.serif.com/',
  'https://boxy-svg.com',
  'http://krita.org/namespaces/svg/krita',
  'http://vectornator.io',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  'http://creativecommons.org/ns#',
  'http://web.resource.org/cc/',
  'http://purl.org/dc/elements/1.1/',
  'http://purl.org/dc/terms/',
]);

/** SMIL animation elements: allowed, but not on event handlers or links (see svg-safety.ts). */
export const animationElements: ReadonlySet<string> = new Set(['animate', 'animateColor', 'animateMotion', 'animateTransform', 'set']);

/**
 * SVG elements that draw, group, paint, filter, describe or animate, from SVG 1.1 and SVG 2, plus the SVG 1.2
 * flowed text and the SVG 2 drafts' mesh gradients and hatches that Inkscape writes (browsers ignore those). Not
 * here, hence refused: `script`, `foreignObject` (it embeds HTML), `handler`/`listener`, the SVG font elements
 * (`font-face-uri` loads a file), `cursor` (an image from elsewhere), `tref`, `discard`, and HTML media elements.
 */
export const svgElements: ReadonlySet<string> = new Set([
  'svg', 'g', 'defs', 'desc', 'title', 'metadata', 'symbol', 'use', 'image', 'switch', 'a', 'view', 'style',
  'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'text', 'tspan', 'textPath',
  'flowRoot', 'flowRegion', 'flowRegionExclude', 'flowPara', 'flowSpan', 'flowDiv',
  'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'marker',
  'meshgradient', 'meshGradient', 'meshrow', 'meshRow', 'meshpatch', 'meshPatch', 'hatch', 'hatchpath', 'hatchPath', 'solidcolor', 'solidColor',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting',
  'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR',
  'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset', 'fePointLight',
  'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
  'mpath', ...animationElements,
]);

/**
 * Attributes without a namespace that SVG elements may carry: geometry, painting (every presentation attribute,
 * whose values are still checked as CSS for `url()`), filters, text, animation timing, conditional processing and
 * accessibility (`data-*` and `aria-*` too). Not here, hence refused: every `on*` event handler, `xml:base`-like
 * rebasing, and anything a browser would fetch on its own. `href` is allowed and checked (see svg-safety.ts).
 */
export const svgAttributes: ReadonlySet<string> = new Set([
  // Core, structure and conditional processing
  'id', 'class', 'style', 'lang', 'tabindex', 'version', 'baseProfile', 'contentStyleType', 'role', 'focusable',
  'requiredFeatures', 'requiredExtensions', 'systemLanguage', 'externalResourcesRequired', 'enable-background',
  'x', 'y', 'width', 'height', 'viewBox', 'preserveAspectRatio', 'zoomAndPan', 'transform', 'title', 'media', 'type',
  'href', 'target', 'hreflang', 'viewTarget',
  // Geometry
  'd', 'points', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'pathLength',
  // Paint servers, clipping, masking, markers
  'offset', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'patternUnits', 'patternContentUnits', 'patternTransform',
  'clipPathUnits', 'maskUnits', 'maskContentUnits', 'markerUnits', 'markerWidth', 'markerHeight', 'refX', 'refY', 'orient',
  'hatchUnits', 'hatchContentUnits', 'pitch',
  // Filters
  'filterUnits', 'primitiveUnits', 'filterRes', 'in', 'in2', 'result', 'stdDeviation', 'edgeMode', 'mode', 'operator',
  'k1', 'k2', 'k3', 'k4', 'values', 'tableValues', 'slope', 'intercept', 'amplitude', 'exponent', 'order', 'kernelMatrix',
  'divisor', 'bias', 'targetX', 'targetY', 'kernelUnitLength', 'preserveAlpha', 'surfaceScale', 'diffuseConstant',
  'specularConstant', 'specularExponent', 'scale', 'xChannelSelector', 'yChannelSelector', 'dx', 'dy', 'radius',
  'baseFrequency', 'numOctaves', 'seed', 'stitchTiles', 'azimuth', 'elevation', 'z', 'pointsAtX', 'pointsAtY',
  'pointsAtZ', 'limitingConeAngle',
  // Text
  'rotate', 'textLength', 'lengthAdjust', 'startOffset', 'method', 'spacing', 'side', 'path',
  // Animation (SMIL)
  'attributeName', 'attributeType', 'begin', 'dur', 'end', 'min', 'max', 'restart', 'repeatCount', 'repeatDur',
  'calcMode', 'keyTimes', 'keySplines', 'from', 'to', 'by', 'additive', 'accumulate', 'keyPoints', 'origin',
  // Presentation attributes (CSS properties as attributes)
  'alignment-baseline', 'baseline-shift', 'clip', 'clip-path', 'clip-rule', 'color', 'color-interpolation',
  'color-interpolation-filters', 'color-profile', 'color-rendering', 'cursor', 'direction', 'display', 'dominant-baseline',
  'fill', 'fill-opacity', 'fill-rule', 'filter', 'flood-color', 'flood-opacity', 'font', 'font-family', 'font-size',
  'font-size-adjust', 'font-stretch', 'font-style', 'font-variant', 'font-weight', 'font-feature-settings',
  'font-variation-settings', 'glyph-orientation-horizontal', 'glyph-orientation-vertical', 'image-rendering', 'kerning',
  'letter-spacing', 'lighting-color', 'marker', 'marker-end', 'marker-mid', 'marker-start', 'mask', 'mask-type',
  'opacity', 'overflow', 'paint-order', 'pointer-events', 'shape-rendering', 'solid-color', 'solid-opacity',
  'stop-color', 'stop-opacity', 'stroke', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-linecap', 'stroke-linejoin',
  'stroke-miterlimit', 'stroke-opacity', 'stroke-width', 'text-anchor', 'text-decoration', 'text-rendering',
  'text-overflow', 'unicode-bidi', 'vector-effect', 'visibility', 'white-space', 'word-spacing', 'writing-mode',
  'isolation', 'mix-blend-mode', 'transform-origin', 'transform-box', 'inline-size', 'line-height', 'shape-inside',
  'shape-subtract', 'shape-padding', 'shape-margin', 'text-align', 'text-indent', 'text-transform', 'text-orientation',
]);

/** Attributes of the XML and XLink namespaces that SVG elements may carry (`xml:base` is not one: it rebases links). */
export const namespacedAttributes: Readonly<Record<string, ReadonlySet<string>>> = {
  [namespaces.xml]: new Set(['space', 'lang', 'id']),
  [namespaces.xlink]: new Set(['href', 'title', 'type', 'role', 'arcrole', 'show', 'actuate']),
};

/**
 * Declared encodings that read ASCII as ASCII: a file declaring one of them parses the same markup whether a
 * browser decodes it as declared or as UTF-8 (the play origin's charset), as long as its text is ASCII.
 */
export const asciiCompatibleEncodings: ReadonlySet<string> = new Set([
  'utf-8', 'utf8', 'us-ascii', 'ascii', 'iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'windows-1252', 'cp1252',
]);
