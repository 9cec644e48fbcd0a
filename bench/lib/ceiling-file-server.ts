// The ceiling for downloads: a bare node:http server streaming one file from disk, in its own process.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';

const [file, portArg] = process.argv.slice(2);
if (!file || !portArg) throw new Error('usage: ceiling-file-server <file> <port>');
const size = statSync(file).size;
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': size });
    createReadStream(file).pipe(res);
  })
  .listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
