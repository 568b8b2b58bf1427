import { storedSpriteSize, type AtlasFrame as Frame } from '@reskin/contract';
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
 * How to draw one frame of a sprite sheet upright at its source size: the pixels of `source` (the
 * frame's rect on the page, as stored) drawn centred on `centre` and turned by `angle` radians (negative:
 * counter-clockwise, which undoes the clockwise `rotation` the packer stored it with), on a canvas of
 * `width` x `height`. A trimmed frame's pixels land at its `offset` inside that full size; the rest stays clear.
 */
export interface FrameDrawing {
  width: number;
  height: number;
  source: { x: number; y: number; w: number; h: number };
  centre: { x: number; y: number };
  angle: number;
}

export function frameDrawing(
  frame: Pick<Frame, 'rect' | 'rotation' | 'sourceSize' | 'offset'>,
): FrameDrawing {
  const upright = storedSpriteSize(frame);
  return {
    width: frame.sourceSize.w,
    height: frame.sourceSize.h,
    source: frame.rect,
    centre: { x: frame.offset.x + upright.w / 2, y: frame.offset.y + upright.h / 2 },
    angle: frame.rotation === 0 ? 0 : (-frame.rotation * Math.PI) / 180,
  };
}

/** Draws a frame cut from its sheet (one loaded image for every frame of the sheet) onto a canvas of the frame's source size. */
export function drawFrame(
  canvas: HTMLCanvasElement,
  sheet: CanvasImageSource,
  frame: Pick<Frame, 'rect' | 'rotation' | 'sourceSize' | 'offset'>,
): void {
  const drawing = frameDrawing(frame);
  canvas.width = drawing.width;
  canvas.height = drawing.height;
  const context = canvas.getContext('2d');
  if (!context) return;
  const { source, centre, angle } = drawing;
  context.clearRect(0, 0, drawing.width, drawing.height);
  context.imageSmoothingEnabled = false;
  context.translate(centre.x, centre.y);
  context.rotate(angle);
  context.drawImage(
    sheet,
    source.x,
    source.y,
    source.w,
    source.h,
    -source.w / 2,
    -source.h / 2,
    source.w,
    source.h,
  );
  context.setTransform(1, 0, 0, 1, 0, 0);
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
 * One frame cut from a sprite sheet, drawn upright at its source size on a canvas from the sheet
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
