import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { currentRequest, OPENSTACK_REQUEST_ID_HEADER } from '../platform/request-id.js';
import { cloudUnreachable, faultFromBody } from './fault.js';

export interface OpenStackRequest {
  method?: string;
  body?: unknown;
  token?: string;
  /** e.g. `compute 2.60`: sent as OpenStack-API-Version (and Nova's legacy header for compute). */
  microversion?: string;
  headers?: Record<string, string>;
  /** Let these statuses through instead of raising a fault (e.g. 404 for "does it exist"). */
  allow?: number[];
  /** How long to wait for the answer (30 s by default). */
  timeoutMs?: number;
  /** Log a call that gets no answer (default true; a health probe reports its own state changes). */
  logFailure?: boolean;
}

export interface OpenStackResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * One HTTP call to an OpenStack service; faults become OpenStackFault, network errors a 503 that says
 * nothing about the cloud's address (that, and the socket error, go to the log with the request id).
 */
export async function callOpenStack<T = unknown>(
  service: string,
  url: string,
  req: OpenStackRequest = {},
): Promise<OpenStackResponse<T>> {
  const scope = currentRequest();
  const method = req.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  // The global request id: the cloud logs it next to its own, so one id leads from the browser there.
  if (scope) headers[OPENSTACK_REQUEST_ID_HEADER] = scope.openstackRequestId;
  if (req.token) headers['X-Auth-Token'] = req.token;
  if (req.body !== undefined) headers['Content-Type'] = 'application/json';
  if (req.microversion) {
    headers['OpenStack-API-Version'] = req.microversion;
    const [name, version] = req.microversion.split(' ');
    if (name === 'compute' && version) headers['X-OpenStack-Nova-API-Version'] = version;
  }
  let res: { status: number; headers: Headers; text: string };
  const started = performance.now();
  const timeoutMs = req.timeoutMs ?? TIMEOUT_MS;
  try {
    res = await send(
      url,
      method,
      headers,
      req.body !== undefined ? JSON.stringify(req.body) : null,
      timeoutMs,
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    if (req.logFailure !== false) {
      // One line: a socket error's stack says nothing more than its code.
      scope?.log.warn(
        {
          upstream: service,
          method,
          url,
          error: reason,
          code: (err as { code?: string }).code,
          openstackRequestId: scope.openstackRequestId,
        },
        `${service} ${method} ${new URL(url).pathname}: no answer (${reason})`,
      );
    }
    throw cloudUnreachable(service, err);
  }
  scope?.log.debug(
    {
      upstream: service,
      method,
      url,
      status: res.status,
      ms: Math.round(performance.now() - started),
      openstackRequestId: scope.openstackRequestId,
      cloudRequestId: res.headers.get('x-openstack-request-id'),
    },
    `${service} ${method} ${new URL(url).pathname} ${res.status}`,
  );
  const text = res.text;
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (res.status >= 400 && !req.allow?.includes(res.status)) {
    throw faultFromBody(service, res.status, body, res.headers.get('x-openstack-request-id'));
  }
  return { status: res.status, headers: res.headers, body: body as T };
}

const TIMEOUT_MS = 30_000;
// Pooled keep-alive connections: node:http costs the BFF far less per call than fetch's
// streams, and every page of the dashboard makes several calls to the cloud. With a timeout set,
// Node also drops an idle socket a second before the server's `Keep-Alive: timeout=N` says the
// server will (without one it keeps it, and the next call on it fails with "socket hang up").
const pool = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: TIMEOUT_MS };
const agents = { 'http:': new HttpAgent(pool), 'https:': new HttpsAgent(pool) };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function toHeaders(raw: IncomingMessage['headers']): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return h;
}

/** One request on a pooled connection, following a few redirects as fetch would. */
async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | null,
  timeoutMs: number,
  hops = 3,
  retried = false,
): Promise<{ status: number; headers: Headers; text: string }> {
  const target = new URL(url);
  const https = target.protocol === 'https:';
  if (!https && target.protocol !== 'http:') throw new Error(`unsupported URL ${url}`);
  const res = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
    const r = (https ? httpsRequest : httpRequest)(
      target,
      {
        method,
        // The retry goes on a new connection: the pool's other idle sockets may be closing too.
        agent: retried ? false : agents[https ? 'https:' : 'http:'],
        headers: body !== null ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } : headers,
        timeout: timeoutMs,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (c: Buffer) => chunks.push(c));
        incoming.on('error', reject);
        incoming.on('close', () => {
          if (!incoming.complete) reject(new Error('the connection closed in the middle of the answer'));
        });
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: toHeaders(incoming.headers),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer in ${timeoutMs / 1000} s`)));
    r.on('error', (err) => reject(Object.assign(err, { reusedSocket: r.reusedSocket })));
    r.end(body ?? undefined);
  }).catch((err: Error & { reusedSocket?: boolean }) => {
    // A kept-alive connection the server closed just as it was reused: a read can go again.
    if (err.reusedSocket && !retried && (method === 'GET' || method === 'HEAD')) {
      return send(url, method, headers, body, timeoutMs, hops, true);
    }
    throw err;
  });
  const location = res.headers.get('location');
  if (REDIRECTS.has(res.status) && location && hops > 0) {
    // As fetch does: 303, and 301/302 after a POST, continue as a GET without the body.
    const asGet = res.status === 303 || (method === 'POST' && res.status <= 302);
    const next = new URL(location, url).toString();
    return asGet
      ? send(next, 'GET', headers, null, timeoutMs, hops - 1)
      : send(next, method, headers, body, timeoutMs, hops - 1);
  }
  return res;
}
