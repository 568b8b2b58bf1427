// The resolve hook of record-imports.mjs (it runs on Node's loader thread).
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, nextResolve) {
  if (process.env.RECORD_IMPORTS_TO) appendFileSync(process.env.RECORD_IMPORTS_TO, `${specifier}\n`);
  return nextResolve(specifier, context);
}
