import type { AtlasFrame as Frame } from '@reskin/contract';
import { useEffect, useRef, useState } from 'react';

/** Sheets loaded once per URL for every frame cut from them (a sheet of 500 frames is one image load). */
const loaded = new Map<string, Promise<HTMLImageElement>>();
const keptSheets = 32;

/** The sheet image at `src`, loaded once and shared; a failed load is forgotten so a later frame tries again. */
export function loadSheet(src: string): Promise<HTMLImageElement> {
  const kept = loaded.get(src);
  if (kept) return kept;
  const loading = new Promise<HTMLImageElement>((resolve, reject) => {
    const image = new Image();
    image.decoding = 'async';
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`The sheet ${src} could not be loaded.`));
    image.src = src;
  });
  loading.catch(() => loaded.delete(src));
  loaded.set(src, loading);
  if (loaded.size > keptSheets) loaded.delete(loaded.keys().next().value!);
  return loading;
}

/**
 * Draws one frame of a sheet upright at its full source size on `canvas`: the stored pixels (`rect`, turned
 * `rotation` degrees clockwise on the page) are turned back and placed at `offset` in the `sourceSize` box; the
 * rest of the box (a trimmed frame's cut borders) stays transparent.
 */
export function drawFrame(canvas: HTMLCanvasElement, sheet: CanvasImageSource, frame: Pick<Frame, 'rect' | 'rotation' | 'sourceSize' | 'offset'>): void {
  const { rect, rotation, sourceSize, offset } = frame;
  canvas.width = sourceSize.w;
  canvas.height = sourceSize.h;
  const context = canvas.getContext('2d');
  if (!context) return;
  const turned = rotation === 90 || rotation === 270;
  // The upright trimmed sprite's size: the rect's sides swap when the packer turned it a quarter.
  const [w, h] = turned ? [rect.h, rect.w] : [rect.w, rect.h];
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.save();
  context.translate(offset.x + w / 2, offset.y + h / 2);
  // Stored turned clockwise: turned back counter-clockwise (a canvas turns clockwise for positive angles).
  context.rotate((-rotation * Math.PI) / 180);
  context.drawImage(sheet, rect.x, rect.y, rect.w, rect.h, -rect.w / 2, -rect.h / 2, rect.w, rect.h);
  context.restore();
}

export interface AtlasFrameProps {
  /** The sheet image's URL (the game's original sheet, or a version's composed one). */
  src: string;
  /** The frame as GET /games/{id}/atlases gives it. */
  frame: Pick<Frame, 'name' | 'rect' | 'rotation' | 'sourceSize' | 'offset'>;
  /** The accessible name of the picture. */
  alt: string;
  /** The side of the square the frame is fitted into, in CSS pixels (scaled up with hard pixel edges, or down); none: 1:1. */
  size?: number;
  className?: string;
}

/**
 * One frame cut from a sprite sheet (issue 26), drawn upright at its source size on a canvas from the sheet
 * loaded once per URL (loadSheet). `data-state` says loading, drawn or failed (tests wait for drawn).
 */
export function AtlasFrame({ src, frame, alt, size, className }: AtlasFrameProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'failed'>('loading');
  const { sourceSize } = frame;

  useEffect(() => {
    let current = true;
    setState('loading');
    loadSheet(src).then(
      (sheet) => {
        if (!current || !canvas.current) return;
        drawFrame(canvas.current, sheet, frame);
        setState('drawn');
      },
      () => current && setState('failed'),
    );
    return () => {
      current = false;
    };
  }, [src, frame]);

  const scale = size === undefined ? 1 : size / Math.max(sourceSize.w, sourceSize.h);
  return (
    <canvas
      ref={canvas}
      role="img"
      aria-label={state === 'failed' ? `${alt} (the sheet could not be loaded)` : alt}
      data-state={state}
      data-frame={frame.name}
      className={className}
      width={sourceSize.w}
      height={sourceSize.h}
      style={{
        width: Math.max(1, Math.round(sourceSize.w * scale)),
        height: Math.max(1, Math.round(sourceSize.h * scale)),
        imageRendering: scale > 1 ? 'pixelated' : 'auto',
      }}
    />
  );
}
