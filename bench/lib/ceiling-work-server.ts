// A bare node:http server that spends a fixed amount of CPU on every request before answering the same body
// (bench/ceiling-work.ts): how fast a server doing only that much work can be, beside the bare ceiling.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [workArg, portArg] = process.argv.slice(2);
if (workArg === undefined || portArg === undefined) throw new Error('usage: ceiling-work-server <microseconds> <port>');
const workMs = Number(workArg) / 1000;
// A skill detail's size, as the registry answers it.
const body = Buffer.from(JSON.stringify({ slug: 'bench-skill', description: 'x'.repeat(1400) }));
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };

http
  .createServer((_request, response) => {
    const until = performance.now() + workMs;
    while (performance.now() < until) {
      // The stand-in for a framework's and an application's work on the request.
    }
    response.writeHead(200, headers);
    response.end(body);
  })
  .listen(Number(portArg), '127.0.0.1', () => process.send?.('ready'));
