import { connect } from 'node:net';

/**
 * Bytes written straight to a server's socket, in the chunks given (a client that sends its
 * request line in two packets, headers no HTTP client library would send), and the answer read
 * until the server closes the connection.
 */
export interface SocketAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Everything received, for failure messages. */
  raw: string;
}

export function parseAnswer(raw: string): SocketAnswer {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = headEnd < 0 ? raw : raw.slice(0, headEnd);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1] ?? 0),
    headers,
    body: headEnd < 0 ? '' : raw.slice(headEnd + 4),
    raw,
  };
}

export function sendOnSocket(baseUrl: string, chunks: string[], timeoutMs = 10_000): Promise<SocketAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(Number(url.port), url.hostname, async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 20));
        if (socket.writable) socket.write(chunk);
      }
    });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms: ${JSON.stringify(received.slice(0, 300))}`));
    });
    socket.on('data', (b: Buffer) => {
      received += b.toString('utf8');
    });
    // The server may close while we still write: what it answered is what counts.
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(parseAnswer(received)));
  });
}

/** A GET whose request line is `pathLength` bytes of path and query, in one packet. */
export const longRequestLine = (prefix: string, pathLength: number) =>
  `GET ${prefix}?q=${'a'.repeat(Math.max(0, pathLength - prefix.length - 3))} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n`;
