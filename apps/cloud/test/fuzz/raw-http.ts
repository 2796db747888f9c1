import { request } from 'node:http';

/**
 * One hostile request, sent byte for byte: `fetch` would normalise the path (`..`, `%2e%2e`),
 * refuse odd methods and re-encode the body, which is exactly what the fuzz must not do.
 */
export interface RawRequest {
  method: string;
  /** Path and query as they go on the wire (printable ASCII; anything else percent-encoded). */
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body was cut at MAX_RESPONSE_BYTES. */
  truncated: boolean;
}

const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const TIMEOUT_MS = 20_000;

/**
 * Sends on a fresh connection (agent: false), so a request the server answered before reading
 * its body cannot leave bytes behind that corrupt the next one.
 */
export function sendRaw(baseUrl: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...req.headers,
          ...(req.body !== undefined ? { 'Content-Length': String(req.body.length) } : {}),
        },
        agent: false,
        timeout: TIMEOUT_MS,
      },
      (res) => {
        // An event stream never ends by itself: its headers are the answer.
        if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          finish(() =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: '', truncated: false }),
          );
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (c: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(c);
          else truncated = true;
          size += c.length;
        });
        res.on('end', () =>
          finish(() =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString('utf8'),
              truncated,
            }),
          ),
        );
        res.on('error', (err) => finish(() => reject(err)));
      },
    );
    r.on('timeout', () => {
      r.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`));
    });
    // The server may answer (413) and close before the whole body is written: the answer counts.
    r.on('error', (err) => finish(() => reject(err)));
    r.end(req.body);
  });
}

/** Node's --max-http-header-size: a longer request line and headers never reach the routes (414 or 431). */
export const MAX_HEAD_BYTES = 16 * 1024;

/** The size of the request line and headers as sent (Host, Connection and Content-Length included). */
export function headBytes(req: RawRequest): number {
  let n =
    `${req.method} ${req.path} HTTP/1.1\r\n`.length + 'Host: 127.0.0.1:65535\r\nConnection: close\r\n'.length;
  for (const [k, v] of Object.entries(req.headers))
    for (const x of Array.isArray(v) ? v : [v]) n += Buffer.byteLength(`${k}: ${x}\r\n`, 'latin1');
  return n + 'Content-Length: 1000000\r\n\r\n'.length;
}

/** A header's value as one string (Node gives arrays for repeated ones). */
export const headerOf = (res: RawResponse, name: string): string => {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
};
