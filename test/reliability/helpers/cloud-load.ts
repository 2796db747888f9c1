import type { ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';

/**
 * A client for driving several bundled-cloud processes that share one database, as a load
 * balancer in front of them would: each call names the process it goes to, every process has its
 * own keep-alive pool, and every answer is tallied so a test or the soak can say afterwards
 * whether any request ever got a 5xx. Used by test/reliability/multi-process.test.ts and
 * bench/soak.ts.
 */

export interface ApiResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: OpenStack JSON is read freely by the callers
  body: any;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** Wall time to the last byte. */
  ms: number;
}

export interface CallOptions {
  body?: unknown;
  /** `compute 2.60`, `volume 3.27`... sent as OpenStack-API-Version. */
  version?: string;
  /** Default 30 s: a request that hangs is a failure, not a stuck run. */
  timeoutMs?: number;
}

/** One 5xx or network failure, kept for the failure message. */
export interface ServerFault {
  method: string;
  path: string;
  via: number;
  status: number | 'network';
  text: string;
}

export class CloudApi {
  readonly #agents: Agent[];
  token = '';
  projectId = '';
  /** Answers by status code, over every process. */
  readonly statuses = new Map<number, number>();
  /** Every 5xx and network failure. */
  readonly faults: ServerFault[] = [];

  constructor(
    readonly urls: readonly string[],
    opts: { maxSockets?: number } = {},
  ) {
    // Idle sockets go before the server's 5 s keep-alive timeout would close them under us.
    this.#agents = urls.map(
      () => new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 64, timeout: 4_000 }),
    );
  }

  /** The process index for the i-th request of a batch: alternates over the processes. */
  via(i: number): number {
    return i % this.urls.length;
  }

  get volumeBase(): string {
    return `/volume/v3/${this.projectId}`;
  }

  async call(via: number, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse> {
    try {
      return await this.#send(via, method, path, opts);
    } catch (err) {
      // A kept-alive socket the server closed just as it was reused: the request never reached
      // the server, so sending it again is safe (Node's documented pattern for reusedSocket).
      if ((err as { reusedSocket?: boolean }).reusedSocket) return this.#send(via, method, path, opts);
      throw err;
    }
  }

  #send(via: number, method: string, path: string, opts: CallOptions): Promise<ApiResponse> {
    const index = via % this.urls.length;
    const url = new URL(path, this.urls[index]);
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.token) headers['X-Auth-Token'] = this.token;
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(payload));
    }
    if (opts.version) headers['OpenStack-API-Version'] = opts.version;
    const started = performance.now();
    return new Promise<ApiResponse>((resolve, reject) => {
      const req = request(
        url,
        { method, headers, agent: this.#agents[index], timeout: opts.timeoutMs ?? 30_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            const status = res.statusCode ?? 0;
            this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
            if (status >= 500)
              this.faults.push({ method, path, via: index, status, text: text.slice(0, 500) });
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status, body, text, headers: res.headers, ms: performance.now() - started });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs ?? 30_000} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (req.reusedSocket && err.code === 'ECONNRESET') {
          reject(Object.assign(err, { reusedSocket: true }));
          return;
        }
        this.faults.push({ method, path, via: index, status: 'network', text: err.message });
        reject(err);
      });
      req.end(payload);
    });
  }

  /** Like `call`, but anything other than `expected` throws with the answer in the message. */
  async expect(
    expected: number,
    via: number,
    method: string,
    path: string,
    opts: CallOptions = {},
  ): Promise<ApiResponse> {
    const res = await this.call(via, method, path, opts);
    if (res.status !== expected) {
      throw new Error(`${method} ${path} via ${via}: expected ${expected}, got ${res.status} ${res.text}`);
    }
    return res;
  }

  close(): void {
    for (const a of this.#agents) a.destroy();
  }
}

// --- OpenStack steps ------------------------------------------------------------------------------

export const NOVA = 'compute 2.60';
/** Attachment ids in os-volume_attachments. */
export const NOVA_ATTACHMENT_IDS = 'compute 2.89';
/** Multi-create with a multiattach volume. */
export const NOVA_LATEST = 'compute 2.105';
/** The attachments API. */
export const CINDER = 'volume 3.27';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Password auth as admin on the admin project; the token is then good on every process. */
export async function loginAdmin(api: CloudApi, password = 'admin'): Promise<void> {
  const res = await api.expect(201, 0, 'POST', '/identity/v3/auth/tokens', {
    body: {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'admin', domain: { name: 'Default' }, password } },
        },
        scope: { project: { name: 'admin', domain: { name: 'Default' } } },
      },
    },
  });
  const token = res.headers['x-subject-token'];
  if (typeof token !== 'string') throw new Error('no X-Subject-Token in the login answer');
  api.token = token;
  api.projectId = res.body.token.project.id;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Creates a 1 GB volume (type `multiattach` or the default) and waits until it is available. */
export async function createVolume(
  api: CloudApi,
  via: number,
  name: string,
  multiattach: boolean,
): Promise<string> {
  const res = await api.expect(202, via, 'POST', `${api.volumeBase}/volumes`, {
    body: { volume: { size: 1, name, ...(multiattach ? { volume_type: 'multiattach' } : {}) } },
    version: 'volume 3.0',
  });
  const id = res.body.volume.id as string;
  await waitFor(`volume ${name} available`, async () => {
    const v = await api.expect(200, via, 'GET', `${api.volumeBase}/volumes/${id}`);
    if (v.body.volume.status === 'error') throw new Error(`volume ${name} went to error`);
    return v.body.volume.status === 'available' ? true : undefined;
  });
  return id;
}

export async function imageId(api: CloudApi): Promise<string> {
  const res = await api.expect(200, 0, 'GET', '/image/v2/images');
  const id = res.body.images?.[0]?.id as string | undefined;
  if (!id) throw new Error('no image in the cloud');
  return id;
}

export interface MultiCreate {
  name: string;
  count: number;
  image: string;
  /** `zone:host` (admin): the scheduler's capacity filters are skipped, so any count fits. */
  availabilityZone?: string;
  /** 2.105: every server boots with this multiattach volume as a second disk. */
  sharedVolumeId?: string;
}

/** One `POST /servers` with min_count = max_count = count; returns its reservation id. */
export async function multiCreate(api: CloudApi, via: number, spec: MultiCreate): Promise<string> {
  const server: Record<string, unknown> = {
    name: spec.name,
    flavorRef: '42',
    imageRef: spec.image,
    networks: 'none',
    min_count: spec.count,
    max_count: spec.count,
    return_reservation_id: true,
    ...(spec.availabilityZone ? { availability_zone: spec.availabilityZone } : {}),
  };
  if (spec.sharedVolumeId) {
    server['block_device_mapping_v2'] = [
      { boot_index: 0, uuid: spec.image, source_type: 'image', destination_type: 'local' },
      { boot_index: -1, uuid: spec.sharedVolumeId, source_type: 'volume', destination_type: 'volume' },
    ];
  }
  const res = await api.expect(202, via, 'POST', '/compute/v2.1/servers', {
    body: { server },
    version: spec.sharedVolumeId ? NOVA_LATEST : NOVA,
  });
  return res.body.reservation_id as string;
}

export interface ServerSummary {
  id: string;
  name: string;
  status: string;
}

export async function serversOf(api: CloudApi, via: number, reservationId: string): Promise<ServerSummary[]> {
  const res = await api.expect(
    200,
    via,
    'GET',
    `/compute/v2.1/servers/detail?reservation_id=${reservationId}&limit=1000`,
    { version: NOVA },
  );
  return (res.body.servers as ServerSummary[]).map((s) => ({ id: s.id, name: s.name, status: s.status }));
}

/** Waits until every server of the reservation is ACTIVE; throws if one goes to ERROR. */
export async function waitActive(
  api: CloudApi,
  reservationId: string,
  count: number,
  timeoutMs = 60_000,
): Promise<string[]> {
  return waitFor(
    `${count} servers of ${reservationId} ACTIVE`,
    async () => {
      const servers = await serversOf(api, 0, reservationId);
      const failed = servers.find((s) => s.status === 'ERROR');
      if (failed) throw new Error(`server ${failed.name} went to ERROR`);
      return servers.length === count && servers.every((s) => s.status === 'ACTIVE')
        ? servers.map((s) => s.id)
        : undefined;
    },
    timeoutMs,
    200,
  );
}

// --- Consistency ----------------------------------------------------------------------------------

interface NovaMapping {
  serverId: string;
  volumeId: string;
  device?: string;
  attachment_id: string | null;
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function inPool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, i: number) => Promise<R>,
) {
  const out: R[] = new Array(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!, i);
    }
  });
  await Promise.all(runners);
  return out;
}

/**
 * At rest (nothing in flight), do Nova and Cinder tell the same story, through every process?
 * For each volume: its status follows its attachment records (in-use with any, available with
 * none, nothing left reserved/attaching/detaching), the volume's `attachments` list the same
 * records, and the servers' os-volume_attachments hold exactly those, each with a device that
 * Cinder also shows; every device on a server is distinct; no record names a server that is
 * gone. Returns the disagreements (empty when consistent).
 */
export async function checkConsistency(
  api: CloudApi,
  volumeIds: readonly string[],
  serverIds: readonly string[],
): Promise<string[]> {
  const problems: string[] = [];
  const viaCount = api.urls.length;

  interface VolumeView {
    status: string;
    attachments: { attachment_id: string; server_id: string; device: string }[];
  }
  interface AttachmentRecord {
    id: string;
    status: string;
    instance: string | null;
  }
  const cinder = await inPool(volumeIds, 8, async (volumeId, i) => {
    const [vol, recs] = await Promise.all([
      api.call(i % viaCount, 'GET', `${api.volumeBase}/volumes/${volumeId}`, { version: 'volume 3.0' }),
      api.call((i + 1) % viaCount, 'GET', `${api.volumeBase}/attachments/detail?volume_id=${volumeId}`, {
        version: CINDER,
      }),
    ]);
    if (vol.status !== 200 || recs.status !== 200) {
      problems.push(`volume ${volumeId}: GET answered ${vol.status} / attachments ${recs.status}`);
      return null;
    }
    return {
      volumeId,
      volume: vol.body.volume as VolumeView,
      records: recs.body.attachments as AttachmentRecord[],
    };
  });

  // Nova's side: the given servers, plus any server a Cinder record names (to tell orphans).
  const named = cinder.flatMap((c) => c?.records.flatMap((r) => (r.instance ? [r.instance] : [])) ?? []);
  const toAsk = [...new Set([...serverIds, ...named])];
  const live = new Set<string>();
  const mappings = (
    await inPool(toAsk, 16, async (id, i) => {
      const res = await api.call(i % viaCount, 'GET', `/compute/v2.1/servers/${id}/os-volume_attachments`, {
        version: NOVA_ATTACHMENT_IDS,
      });
      if (res.status === 404) return [];
      if (res.status !== 200) throw new Error(`os-volume_attachments of ${id}: ${res.status} ${res.text}`);
      live.add(id);
      const list = res.body.volumeAttachments as NovaMapping[];
      const devices = list.map((m) => m.device).filter((d): d is string => Boolean(d));
      if (new Set(devices).size !== devices.length) {
        problems.push(`server ${id}: duplicate devices ${devices.sort().join(',')}`);
      }
      return list;
    })
  ).flat();

  for (const c of cinder) {
    if (!c) continue;
    const { volumeId, volume: v, records } = c;
    const expected = records.length > 0 ? 'in-use' : 'available';
    if (v.status !== expected) {
      problems.push(`volume ${volumeId}: status ${v.status} with ${records.length} attachment records`);
    }
    for (const r of records) {
      if (r.status !== 'attached') problems.push(`attachment ${r.id}: left ${r.status}`);
      if (!r.instance || !live.has(r.instance))
        problems.push(`attachment ${r.id}: orphan (server ${r.instance})`);
    }
    const cinderIds = new Set(records.map((r) => r.id));
    const shown = new Map(v.attachments.map((a) => [a.attachment_id, a]));
    if (shown.size !== cinderIds.size || [...cinderIds].some((id) => !shown.has(id))) {
      problems.push(
        `volume ${volumeId}: its attachments list ${shown.size}, /attachments has ${cinderIds.size} records`,
      );
    }
    const nova = mappings.filter((m) => m.volumeId === volumeId);
    const novaIds = new Set(nova.map((m) => m.attachment_id));
    if (
      novaIds.size !== nova.length ||
      nova.length !== cinderIds.size ||
      nova.some((m) => !cinderIds.has(m.attachment_id ?? ''))
    ) {
      problems.push(`volume ${volumeId}: Nova maps ${nova.length} servers, Cinder records ${cinderIds.size}`);
    }
    for (const m of nova) {
      const shownAs = shown.get(m.attachment_id ?? '');
      if (!m.device) problems.push(`server ${m.serverId}: volume ${volumeId} has no device`);
      else if (shownAs && shownAs.device !== m.device) {
        problems.push(`server ${m.serverId}: device ${m.device} in Nova, ${shownAs.device} in Cinder`);
      }
      if (shownAs && shownAs.server_id !== m.serverId) {
        problems.push(`attachment ${m.attachment_id}: server disagrees`);
      }
    }
  }
  return problems;
}

/** What a cloud process logged that matters here, read line by line as it is written. */
export interface OutputWatch {
  /** Lines at error level or above (pino level ≥ 50), and non-JSON lines that look like a crash. */
  errors: string[];
  /** Transactions the store retried after a serialisation failure or deadlock, by SQLSTATE. */
  retries: Map<string, number>;
}

/**
 * Reads what a process wrote so far and watches its stdout and stderr from now on. Start the process with LOG_LEVEL=debug to see the
 * store's `retrying transaction` lines; errors are seen at any level.
 */
export function watchOutput(proc: { child: ChildProcess; output(): string }): OutputWatch {
  const watch: OutputWatch = { errors: [], retries: new Map() };
  const classify = (line: string) => {
    if (line.trim() === '') return;
    let entry: { level?: number; msg?: string; code?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      if (/error|unhandled|uncaught/i.test(line)) watch.errors.push(line);
      return;
    }
    if ((entry.level ?? 0) >= 50) watch.errors.push(line.slice(0, 2_000));
    if (entry.msg === 'retrying transaction') {
      const code = entry.code ?? '?';
      watch.retries.set(code, (watch.retries.get(code) ?? 0) + 1);
    }
  };
  // What it wrote before now (start-up: migrations and seed), then everything it writes next.
  for (const line of proc.output().split('\n')) classify(line);
  for (const stream of [proc.child.stdout, proc.child.stderr]) {
    let partial = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) classify(line);
    });
  }
  return watch;
}

export const retryCount = (watches: readonly OutputWatch[]): number =>
  watches.reduce((n, w) => n + [...w.retries.values()].reduce((a, b) => a + b, 0), 0);
