import { validationMessages as m } from '@reskin/contract';

/**
 * The pixel size of a chosen image, read in the browser before anything is sent. Rejects with SPEC §5's
 * 'Error Occurred On File Read' when the file cannot be read, 'Error Occurred On Image Read' when it does not
 * decode as an image.
 */
export async function readImageSize(file: Blob): Promise<{ width: number; height: number }> {
  try {
    await file.slice(0, 1).arrayBuffer();
  } catch {
    throw new Error(m.fileReadError);
  }
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    if (image.naturalWidth === 0 || image.naturalHeight === 0) throw new Error('no intrinsic size');
    return { width: image.naturalWidth, height: image.naturalHeight };
  } catch {
    throw new Error(m.imageReadError);
  } finally {
    URL.revokeObjectURL(url);
  }
}
