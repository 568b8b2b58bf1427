import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS package loaded on its first use instead of at start-up (decision 0064): the server answers its first
 * request without the packages it needs only for images, zips and passwords (sharp and libvips alone were a fifth
 * of start-up). Synchronous, so the code that uses it stays as it was: `const yazl = lazyPackage<typeof
 * import('yazl')>('yazl')`, then `new (yazl().ZipFile)()`.
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
