import { validationMessages as m, type AtlasFrame } from '@reskin/contract';

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
