// The memory ceiling for uploads: a bare node:http server that streams each request body to a file (as the
// registry stages a package) and answers 201, in its own process. What its RSS grows by for a large upload is
// Node's own share: socket reads land in fresh buffers that are only freed when the garbage collector runs.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const [portArg] = process.argv.slice(2);
if (!portArg) throw new Error('usage: ceiling-upload-server <port>');
const dir = mkdtempSync(path.join(tmpdir(), 'skreg-ceiling-upload-'));
let next = 0;
http
  .createServer((req, res) => {
    const file = path.join(dir, String((next += 1)));
    pipeline(req, createWriteStream(file)).then(
      () => {
        rmSync(file, { force: true });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{}');
      },
      () => res.destroy(),
    );
  })
  .listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => {
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
