#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
const { optimize } = require('svgo');

const [src, out] = process.argv.slice(2);
if (!src || !out) {
  console.error('usage: build-sprite <icons dir> <out.svg>');
  process.exit(1);
}
const symbols = [];
for (const file of fs.readdirSync(src).filter((f) => f.endsWith('.svg')).sort()) {
  const id = path.basename(file, '.svg').toLowerCase().replace(/\s+/g, '-');
  const { data } = optimize(fs.readFileSync(path.join(src, file), 'utf8'), { multipass: true });
  const viewBox = (data.match(/viewBox="([^"]+)"/) || [])[1] || '0 0 24 24';
  const inner = data.replace(/^<svg[^>]*>/, '').replace(/<\/svg>$/, '');
  symbols.push(`<symbol id="${id}" viewBox="${viewBox}">${inner}</symbol>`);
}
fs.writeFileSync(out, `<svg xmlns="http://www.w3.org/2000/svg" style="display:none">${symbols.join('')}</svg>\n`);
console.log(`${symbols.length} symbols -> ${out}`);
