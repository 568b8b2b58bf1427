// Preloaded into a server process (NODE_OPTIONS=--import) by test/lazy-dependencies.test.ts: registers a
// resolve hook that writes every specifier an ES module imports (statically or with import()) to the file
// named by RECORD_IMPORTS_TO, one a line.
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url);
