// The ceiling for JSON endpoints: a bare node:http server answering pre-serialised bodies (the registry's own
// responses, captured once), in its own process. The manifest maps request paths to a body file and its
// content type; a path not in it gets the first entry's body.
import { readFileSync } from 'node:fs';
import http from 'node:http';

interface Entry {
  file: string;
  contentType: string;
}

const [manifestFile, portArg] = process.argv.slice(2);
if (!manifestFile || !portArg) throw new Error('usage: ceiling-body-server <manifest.json> <port>');
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Entry>;
const bodies = new Map<string, { body: Buffer; headers: Record<string, string | number> }>();
for (const [url, entry] of Object.entries(manifest)) {
  const body = readFileSync(entry.file);
  bodies.set(url, { body, headers: { 'content-type': entry.contentType, 'content-length': body.length } });
}
const fallback = bodies.values().next().value;
if (!fallback) throw new Error('the manifest names no body');
http
  .createServer((req, res) => {
    const answer = bodies.get(req.url ?? '') ?? fallback;
    res.writeHead(200, answer.headers);
    res.end(answer.body);
  })
  .listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
