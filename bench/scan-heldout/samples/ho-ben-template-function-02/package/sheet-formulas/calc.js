#!/usr/bin/env node
'use strict';
const fs = require('fs');

const [file, formula] = process.argv.slice(2);
const rows = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => l.split(','));
const col = (letters) => letters.split('').reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
const cell = (ref) => {
  const [, c, r] = ref.match(/^([A-Z]+)(\d+)$/);
  return Number(rows[Number(r) - 1]?.[col(c)] ?? 0);
};
const range = (a, b) => {
  const [, ca, ra] = a.match(/^([A-Z]+)(\d+)$/);
  const [, cb, rb] = b.match(/^([A-Z]+)(\d+)$/);
  const out = [];
  for (let r = Number(ra); r <= Number(rb); r++) for (let c = col(ca); c <= col(cb); c++) out.push(Number(rows[r - 1]?.[c] ?? 0));
  return out;
};
const fns = {
  SUM: (xs) => xs.reduce((a, b) => a + b, 0),
  AVG: (xs) => xs.reduce((a, b) => a + b, 0) / xs.length,
  MIN: (xs) => Math.min(...xs),
  MAX: (xs) => Math.max(...xs),
};

let expr = formula.replace(/^=/, '');
if (!/^[A-Z0-9+\-*/().:,\s]+$/.test(expr)) throw new Error('unsupported characters in formula');
expr = expr
  .replace(/\b(SUM|AVG|MIN|MAX)\(([A-Z]+\d+):([A-Z]+\d+)\)/g, (_, f, a, b) => `fns.${f}(range("${a}","${b}"))`)
  .replace(/\b([A-Z]+\d+)\b/g, (ref) => `cell("${ref}")`);
const evaluate = new Function('cell', 'range', 'fns', `"use strict"; return (${expr});`);
console.log(evaluate(cell, range, fns));
