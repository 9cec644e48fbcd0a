// URLs in a line, read by hand from each `://`: the same URLs, at the same places, as the expression they stand for
// finds and trims, on random lines made of what makes URLs hard to delimit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findUrls } from '@skill-registry/skill-package/scan/urls';
import { rng } from '../../../bench/scan-corpus/prng.js';

const URL_PATTERN = /\bhttps?:\/\/[^\s"'<>`\\|{}^]{1,2000}/gi;

/** The trimming the reader applies, written the plain way: trailing punctuation, then unopened closing brackets. */
function trimmed(raw: string): string {
  let url = raw.replace(/[.,;:!?*_~'"]+$/, '');
  for (const [open, close] of [
    ['(', ')'],
    ['[', ']'],
  ] as const) {
    while (url.endsWith(close) && url.split(close).length > url.split(open).length) url = url.slice(0, -1);
  }
  return url.replace(/[.,;:!?*_~]+$/, '');
}

/** Whether the authority names a real host: a domain name or a dotted address, without user information or port. */
function realHost(authority: string): boolean {
  let host = authority
    .slice(authority.lastIndexOf('@') + 1)
    .replace(/:\d{0,5}$/, '')
    .toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  return /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/.test(host) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host);
}

function expected(text: string): [number, string][] {
  const out: [number, string][] = [];
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = trimmed(m[0]);
    const authority = /^https?:\/\/([^/?#]*)/i.exec(url)![1]!;
    if (realHost(authority)) out.push([m.index, url]);
  }
  return out;
}

const PIECES = [
  'http',
  'https',
  'HTTP',
  'hTtPs',
  '://',
  ':/',
  's://',
  'x',
  '_',
  '9',
  ' ',
  '\t',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\ufeff',
  'é',
  '"',
  "'",
  '<',
  '>',
  '`',
  '\\',
  '|',
  '{',
  '}',
  '^',
  '(',
  ')',
  '[',
  ']',
  '.',
  ',',
  ';',
  ':',
  '!',
  '?',
  '*',
  '~',
  '/',
  '#',
  '@',
  'a.com',
  'B.Org',
  'x-y.io:8080',
  'u:p@h.net',
  '1.2.3.4',
  'host.io.',
  'localhost',
  'path/to',
];

describe('URLs in a line', () => {
  it('finds what the expression finds, trimmed as a reader would, on random lines', () => {
    const random = rng('urls in a line');
    let urls = 0;
    for (let i = 0; i < 20000; i++) {
      let text = '';
      const pieces = random.int(1, 16);
      for (let k = 0; k < pieces; k++)
        text += random.chance(0.25)
          ? `${random.pick(['http', 'https', 'HTTPS', 'xhttp', '_https'])}://${random.pick(PIECES.slice(-8))}`
          : random.pick(PIECES);
      const found = findUrls(text).map((u): [number, string] => [u.index, u.url]);
      assert.deepEqual(found, expected(text), JSON.stringify(text));
      urls += found.length;
    }
    assert.ok(urls > 2000, `${urls} URLs found`);
  });

  it('ends a URL after 2,000 characters and reads on from there, as the expression does', () => {
    for (const text of [
      `see https://a.com/${'x'.repeat(2100)}https://b.org/y and http://c.net`,
      `https://a.com/${'y'.repeat(1994)}http://b.org/z`,
      `https://a.com/${'y'.repeat(1990)}https://b.org/z`,
    ])
      assert.deepEqual(
        findUrls(text).map((u): [number, string] => [u.index, u.url]),
        expected(text),
      );
  });
});
