#!/usr/bin/env node
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';

const MIME = { '.svg': 'image/svg+xml', '.png': 'image/png', '.gif': 'image/gif', '.woff2': 'font/woff2', '.webp': 'image/webp' };
const LIMIT = 4096;

const file = process.argv[2];
const base = dirname(resolve(file));
const css = readFileSync(file, 'utf8');
let count = 0;
const out = css.replace(/url\((['"]?)(\.{1,2}\/[^'")]+)\1\)/g, (whole, _q, rel) => {
  const p = resolve(base, rel);
  const type = MIME[extname(p)];
  try {
    if (!type || statSync(p).size > LIMIT) return whole;
  } catch {
    return whole;
  }
  count++;
  return `url("data:${type};base64,${readFileSync(p).toString('base64')}")`;
});
writeFileSync(file.replace(/\.css$/, '.inlined.css'), out);
console.log(`inlined ${count} asset(s)`);
