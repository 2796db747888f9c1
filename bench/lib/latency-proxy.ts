/**
 * A latency-injecting HTTP proxy between the BFF and the bundled cloud, for the round-trip bench:
 * every call waits `latencyMs` in all (half on the way in, half on the way out), as a call to a
 * cloud in another building would, and is recorded with the times it arrived and was answered.
 *
 * The BFF is pointed at the proxy's Keystone (`<proxy>/identity/v3`), as at any cloud. The proxy
 * passes the client's Host header through, and the bundled cloud writes its catalog from the Host
 * it was asked on, so the catalog names the proxy too and every later call comes back through it.
 *
 * Two switches make the bundled cloud look like a released OpenStack:
 * - `hideExtensions`: the cloud's own paths (`/compute/v2.1/os-emulator-*`: the topology and the
 *   host extensions) answer 404 with the body a real Nova 26 gives for a path it does not know
 *   (capture 154 in apps/cloud/test/golden/captures), so the BFF takes its standard-API path;
 * - `computeMaxVersion`: the compute version documents say this maximum (e.g. 2.104, the newest
 *   released Nova) and a call asking for more gets Nova's 406, so the BFF works as against a cloud
 *   without 2.105, with the microversions it would send there.
 */
import { randomUUID } from 'node:crypto';
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxyProfile {
  /** Added to every call: half before it reaches the cloud, half before its answer leaves. */
  latencyMs: number;
  /** The bundled cloud's own extensions answer 404, as on a real Nova. */
  hideExtensions: boolean;
  /** Compute's maximum microversion as the proxy lets it show (`2.104`); null: the cloud's own. */
  computeMaxVersion: string | null;
}

export const DEFAULT_PROFILE: ProxyProfile = {
  latencyMs: 40,
  hideExtensions: false,
  computeMaxVersion: null,
};

export type CloudService = 'identity' | 'compute' | 'volume' | 'image' | 'network' | 'other';

/** One call the proxy saw, timed on this process's performance clock. */
export interface CloudCall {
  method: string;
  /** Path and query as asked. */
  path: string;
  service: CloudService;
  /** When the request reached the proxy. */
  start: number;
  /** When the last byte of the answer left the proxy. */
  end: number;
  status: number;
}

const serviceOf = (path: string): CloudService => {
  const first = path.split('/')[1] ?? '';
  if (first === 'identity') return 'identity';
  if (first === 'compute') return 'compute';
  if (first === 'volume') return 'volume';
  if (first === 'image') return 'image';
  if (first === 'network') return 'network';
  return 'other';
};

/** The bundled cloud's extension paths; a released Nova has none of them. */
const EXTENSION_PATH = /^\/compute\/v2\.1\/os-emulator-/;
/** Compute's version documents: the list and v2.1's own. */
const COMPUTE_VERSION_DOC = /^\/compute(\/v2\.1)?\/?(\?.*)?$/;

/** What a real Nova 26 answers for a path it has no route for (capture 154), byte for byte. */
const NOVA_UNKNOWN_PATH_BODY =
  '{"message": "The resource could not be found.<br /><br />\\n\\n\\n", "code": "404 Not Found", "title": "Not Found"}';

const compareVersions = (a: string, b: string): number => {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am - bm || an - bn;
};

/** The compute microversion a request asks for, from either header; null when it names none. */
function requestedComputeVersion(headers: IncomingHttpHeaders): string | null {
  const modern = String(headers['openstack-api-version'] ?? '');
  const m = /(?:^|,)\s*compute\s+([\w.]+)/i.exec(modern);
  if (m?.[1]) return m[1];
  const legacy = headers['x-openstack-nova-api-version'];
  return typeof legacy === 'string' && legacy.trim() ? legacy.trim() : null;
}

/** A version document with every advertised maximum capped at `max`. */
function capVersionDocument(text: string, max: string): string {
  type Doc = { version?: { version?: string }; versions?: { version?: string }[] };
  let doc: Doc;
  try {
    doc = JSON.parse(text) as Doc;
  } catch {
    return text;
  }
  const cap = (v: { version?: string } | undefined) => {
    if (v?.version && compareVersions(v.version, max) > 0) v.version = max;
  };
  cap(doc.version);
  for (const v of doc.versions ?? []) cap(v);
  return JSON.stringify(doc);
}

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1), and the length we reset. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
]);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

export class LatencyProxy {
  /** Every call so far, in the order they arrived. */
  readonly calls: CloudCall[] = [];
  #inFlight = 0;
  #lastActivity = performance.now();
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 30_000 });

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
    public profile: ProxyProfile,
  ) {}

  /** Listens on 127.0.0.1 (`port` 0: any free port) and forwards to `target` (the cloud's base URL). */
  static async start(
    target: string,
    profile: ProxyProfile = DEFAULT_PROFILE,
    port = 0,
  ): Promise<LatencyProxy> {
    let proxy: LatencyProxy | null = null;
    const server = createServer((req, res) => {
      void proxy!.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
        res.end(`latency proxy: ${(err as Error).message}`);
      });
    });
    proxy = new LatencyProxy(server, new URL(target), { ...profile });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Calls not yet answered. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** A position in `calls`: what `since` counts from. */
  mark(): number {
    return this.calls.length;
  }

  /** The calls that arrived after `mark`. */
  since(mark: number): CloudCall[] {
    return this.calls.slice(mark);
  }

  /** Resolves once no call is in flight and none has come or gone for `quietMs`. */
  async settled(quietMs: number, timeoutMs = 120_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const idleFor = performance.now() - this.#lastActivity;
      if (this.#inFlight === 0 && idleFor >= quietMs) return;
      if (performance.now() > deadline) {
        throw new Error(`the BFF kept calling the cloud for ${timeoutMs} ms (${this.#inFlight} in flight)`);
      }
      await sleep(Math.max(5, Math.min(50, quietMs - idleFor)));
    }
  }

  close(): Promise<void> {
    this.#agent.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const start = performance.now();
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const profile = this.profile;
    this.#inFlight++;
    this.#lastActivity = start;
    let status = 0;
    try {
      const body = await readBody(req);
      await sleep(profile.latencyMs / 2);
      const answer = await this.answer(method, path, req.headers, body, profile);
      status = answer.status;
      await sleep(profile.latencyMs / 2);
      await new Promise<void>((resolve) => {
        // 204 and 304 carry no body and may not say a length.
        const bodiless = answer.status === 204 || answer.status === 304;
        res.writeHead(
          answer.status,
          bodiless ? answer.headers : { ...answer.headers, 'content-length': String(answer.body.length) },
        );
        res.end(bodiless ? undefined : answer.body, () => resolve());
      });
    } finally {
      const end = performance.now();
      this.#inFlight--;
      this.#lastActivity = end;
      this.calls.push({ method, path, service: serviceOf(path), start, end, status: status || 502 });
    }
  }

  /** The cloud's answer, or the one a released OpenStack would give in its place. */
  private async answer(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
    profile: ProxyProfile,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    if (profile.hideExtensions && EXTENSION_PATH.test(path)) {
      const id = `req-${randomUUID()}`;
      return {
        status: 404,
        headers: {
          'content-type': 'application/json',
          'x-openstack-request-id': id,
          'x-compute-request-id': id,
        },
        body: Buffer.from(NOVA_UNKNOWN_PATH_BODY),
      };
    }
    const max = profile.computeMaxVersion;
    const forwarded: IncomingHttpHeaders = { ...headers };
    if (max && serviceOf(path) === 'compute') {
      const asked = requestedComputeVersion(headers);
      if (asked === 'latest') {
        // `latest` means the newest the cloud offers: here, the cap.
        forwarded['openstack-api-version'] = `compute ${max}`;
        forwarded['x-openstack-nova-api-version'] = max;
      } else if (asked && /^\d+\.\d+$/.test(asked) && compareVersions(asked, max) > 0) {
        const message = `Version ${asked} is not supported by the API. Minimum is 2.1 and maximum is ${max}.`;
        return {
          status: 406,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify({ computeFault: { code: 406, message } })),
        };
      }
    }
    const upstream = await this.forward(method, path, forwarded, body);
    if (max && method === 'GET' && COMPUTE_VERSION_DOC.test(path) && upstream.status < 300) {
      upstream.body = Buffer.from(capVersionDocument(upstream.body.toString('utf8'), max));
    }
    return upstream;
  }

  private forward(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ): Promise<{ status: number; headers: Record<string, string | string[]>; body: Buffer }> {
    const outgoing: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(headers)) {
      // Host stays as the client wrote it: the cloud builds its catalog from it.
      if (v !== undefined && !HOP_BY_HOP.has(k)) outgoing[k] = v;
    }
    if (body.length > 0) outgoing['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const r = request(
        {
          protocol: this.target.protocol,
          hostname: this.target.hostname,
          port: this.target.port,
          method,
          path,
          headers: outgoing,
          agent: this.#agent,
        },
        (incoming) => {
          readBody(incoming).then((buf) => {
            const back: Record<string, string | string[]> = {};
            for (const [k, v] of Object.entries(incoming.headers)) {
              if (v !== undefined && !HOP_BY_HOP.has(k)) back[k] = v;
            }
            resolve({ status: incoming.statusCode ?? 502, headers: back, body: buf });
          }, reject);
        },
      );
      r.on('error', reject);
      r.end(body.length > 0 ? body : undefined);
    });
  }
}
