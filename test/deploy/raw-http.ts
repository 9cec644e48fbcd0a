import net from 'node:net';

/** An HTTP/1.1 answer read off a raw socket. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case; a header sent several times keeps every value, in order. */
  headers: Map<string, string[]>;
  body: string;
}

/** The single value of `name`, or undefined; a header that came more than once is an error. */
export function header(answer: RawAnswer, name: string): string | undefined {
  const values = answer.headers.get(name.toLowerCase());
  if (values === undefined) return undefined;
  if (values.length !== 1) throw new Error(`${name} came ${values.length} times: ${values.join(' | ')}`);
  return values[0];
}

/**
 * A GET written byte for byte as given: the request line, a Host, then `lines` exactly as written (no
 * normalisation of names, case, separators or spacing), and `Connection: close` so the answer ends with the socket.
 */
export function getRequest(path: string, lines: string[] = [], method = 'GET'): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: registry.test', ...lines, 'Connection: close', '', ''].join('\r\n');
}

/** Sends `request` to 127.0.0.1:`port` on a new connection and reads the whole answer. */
export function rawRequest(port: number, request: string, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no whole answer within ${timeoutMs} ms to ${request.split('\r\n')[0]}`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks), request.startsWith('HEAD ')));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    // Written, not ended: nginx takes a client's half-close for a client that went away, and answers nothing.
    socket.write(request, 'latin1');
  });
}

function parseAnswer(raw: Buffer, head: boolean): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`an incomplete answer: ${JSON.stringify(raw.toString('latin1'))}`);
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  let body = raw.subarray(end + 4);
  if (head) body = Buffer.alloc(0);
  else if (headers.get('transfer-encoding')?.some((v) => v.toLowerCase() === 'chunked')) body = dechunk(body);
  return { status: Number(status[1]), headers, body: body.toString('utf8') };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) throw new Error('a chunked body cut short');
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
