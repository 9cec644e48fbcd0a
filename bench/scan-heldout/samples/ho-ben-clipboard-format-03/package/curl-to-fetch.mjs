#!/usr/bin/env node
import clipboard from 'clipboardy';

function tokenize(cmd) {
  const out = [];
  const re = /'([^']*)'|"((?:\\.|[^"])*)"|(\S+)/g;
  let m;
  while ((m = re.exec(cmd.replace(/\\\n/g, ' ')))) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

function convert(cmd) {
  const t = tokenize(cmd);
  let url = '';
  let method = 'GET';
  const headers = {};
  let body;
  for (let i = 1; i < t.length; i++) {
    const a = t[i];
    if (a === '-X' || a === '--request') method = t[++i];
    else if (a === '-H' || a === '--header') {
      const [k, ...v] = t[++i].split(':');
      headers[k.trim()] = v.join(':').trim();
    } else if (a === '-d' || a === '--data' || a === '--data-raw') {
      body = t[++i];
      if (method === 'GET') method = 'POST';
    } else if (!a.startsWith('-')) url = a;
  }
  const opts = { method, headers, ...(body !== undefined ? { body } : {}) };
  return `const res = await fetch(${JSON.stringify(url)}, ${JSON.stringify(opts, null, 2)});\nconst data = await res.json();`;
}

const text = await clipboard.read();
if (!text.trim().startsWith('curl')) {
  console.error('clipboard does not start with curl');
  process.exit(1);
}
await clipboard.write(convert(text));
console.log('fetch code copied to clipboard');
