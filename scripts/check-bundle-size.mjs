#!/usr/bin/env node
// The landing page's budgets, for what the built apps/web/dist/index.html loads before any lazy import,
// gzipped (level 9, as scripts/build.mjs writes the .gz copies) and summed:
// - JavaScript: the entry script and its modulepreload links;
// - CSS: its stylesheet links (Bootstrap's parts the app uses, apps/web/src/app/bootstrap.scss, with the app's own).
// Exits 1 when either is over its budget. Run after the web build.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const budgets = { js: 150 * 1024, css: 28 * 1024 };
const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
const indexFile = join(dist, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`${indexFile} is missing: build the web app first (node scripts/build.mjs).`);
  process.exit(1);
}
const html = readFileSync(indexFile, 'utf8');

const files = { js: new Set(), css: new Set() };
for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
  const isEntry = tag.startsWith('<script') && /\btype="module"/.test(tag);
  const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
  const isStylesheet = tag.startsWith('<link') && /\brel="stylesheet"/.test(tag);
  const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
  if (!url || /^[a-z]+:|^\/\//i.test(url)) continue;
  if (isEntry || isPreload) files.js.add(url.replace(/^\//, ''));
  if (isStylesheet) files.css.add(url.replace(/^\//, ''));
}
for (const kind of ['js', 'css']) {
  if (files[kind].size === 0) {
    console.error(`${indexFile} names no ${kind === 'js' ? 'module script' : 'stylesheet'}.`);
    process.exit(1);
  }
}

let over = false;
for (const [kind, label] of [
  ['js', 'JS'],
  ['css', 'CSS'],
]) {
  let total = 0;
  for (const file of files[kind]) {
    const path = join(dist, file);
    const gzipped = existsSync(`${path}.gz`)
      ? readFileSync(`${path}.gz`).length
      : gzipSync(readFileSync(path), { level: 9 }).length;
    total += gzipped;
    console.log(`  ${(gzipped / 1024).toFixed(1).padStart(7)} KB  ${file}`);
  }
  const budget = budgets[kind];
  const verdict = total > budget ? 'OVER the budget' : 'within the budget';
  console.log(
    `Landing page ${label}: ${(total / 1024).toFixed(1)} KB gzipped in ${files[kind].size} file(s); ` +
      `budget ${budget / 1024} KB: ${verdict}.`,
  );
  if (total > budget) over = true;
}
if (over) process.exit(1);
