import { storedSpriteSize, validationMessages as m, type AtlasFrame } from '@reskin/contract';

/**
 * How to draw one frame of a sprite sheet upright at its source size (issue 26): the pixels of `source` (the
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

export function frameDrawing(frame: Pick<AtlasFrame, 'rect' | 'rotation' | 'sourceSize' | 'offset'>): FrameDrawing {
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
export function drawFrame(canvas: HTMLCanvasElement, sheet: CanvasImageSource, frame: AtlasFrame): void {
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
  context.drawImage(sheet, source.x, source.y, source.w, source.h, -source.w / 2, -source.h / 2, source.w, source.h);
  context.setTransform(1, 0, 0, 1, 0, 0);
}

/** The frames whose name holds the filter text (case-insensitive; an empty filter keeps them all). */
export function filterFrames<F extends { name: string }>(frames: readonly F[], filter: string): F[] {
  const wanted = filter.trim().toLowerCase();
  return wanted === '' ? [...frames] : frames.filter((frame) => frame.name.toLowerCase().includes(wanted));
}

/** Why an image of `loaded` size cannot replace the frame (it must have the frame's source size), else null. */
export function frameSizeRefusal(
  frame: Pick<AtlasFrame, 'name' | 'sourceSize'>,
  loaded: { width: number; height: number },
): string | null {
  const { w, h } = frame.sourceSize;
  return loaded.width === w && loaded.height === h ? null : m.frameSize(frame.name, frame.sourceSize, loaded);
}
