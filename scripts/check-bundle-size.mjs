#!/usr/bin/env node
// The landing page's JavaScript budget (issue 15): the entry script and its modulepreload links in the built
// apps/web/dist/index.html, i.e. every JS file the landing page loads before any lazy import, gzipped (level 9,
// as scripts/build.mjs writes the .gz copies) and summed. Exits 1 over the budget. Run after the web build.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const budgetBytes = 150 * 1024;
const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
const indexFile = join(dist, 'index.html');
if (!existsSync(indexFile)) {
  console.error(`${indexFile} is missing: build the web app first (node scripts/build.mjs).`);
  process.exit(1);
}
const html = readFileSync(indexFile, 'utf8');

const files = new Set();
for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
  const isEntry = tag.startsWith('<script') && /\btype="module"/.test(tag);
  const isPreload = tag.startsWith('<link') && /\brel="modulepreload"/.test(tag);
  const url = /\b(?:src|href)="([^"]+)"/.exec(tag)?.[1];
  if ((isEntry || isPreload) && url && !/^[a-z]+:|^\/\//i.test(url)) files.add(url.replace(/^\//, ''));
}
if (files.size === 0) {
  console.error(`${indexFile} names no module script.`);
  process.exit(1);
}

let total = 0;
for (const file of files) {
  const path = join(dist, file);
  const gzipped = existsSync(`${path}.gz`)
    ? readFileSync(`${path}.gz`).length
    : gzipSync(readFileSync(path), { level: 9 }).length;
  total += gzipped;
  console.log(`  ${(gzipped / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
const verdict = total > budgetBytes ? 'OVER the budget' : 'within the budget';
console.log(
  `Landing page JS: ${(total / 1024).toFixed(1)} KB gzipped in ${files.size} file(s); ` +
    `budget ${budgetBytes / 1024} KB: ${verdict}.`,
);
if (total > budgetBytes) process.exit(1);
