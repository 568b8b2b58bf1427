import { limits } from '@reskin/contract';

const { width, height } = limits.placeholderImage;

/** The 360x240 card image of a game without one (SPEC §2 My Games), as an inline SVG. */
export const placeholderImage = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="100%" height="100%" fill="#dee2e6"/>` +
    `<text x="50%" y="50%" fill="#6c757d" font-family="sans-serif" font-size="24" text-anchor="middle" dominant-baseline="middle">${width} x ${height}</text>` +
    `</svg>`,
)}`;
