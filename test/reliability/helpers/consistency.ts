/**
 * "Is the cloud consistent?", asked the way a client would: through Nova's and Cinder's APIs as
 * admin, across every project. A settled cloud (nothing in flight) must show:
 * - every server ACTIVE or ERROR (or the statuses the caller allows) with no task_state;
 * - every Cinder attachment `attached` (no reserved / attaching / detaching / error_* leftovers),
 *   and one held by a server: that server exists and Nova knows it as its mapping of that volume;
 * - every Nova mapping of a volume backed by that Cinder attachment, and the server's
 *   `volumes_attached` the same volumes as its os-volume_attachments;
 * - every volume in a resting status that agrees with its attachments (`in-use` with some,
 *   `available` with none), listing exactly those attachments, and at most one unless multiattach.
 * `consistencyProblems` says what is wrong in words; `waitUntilConsistent` polls until nothing is
 * (a restarted cloud's reconciler may still be working) and fails with the problems otherwise.
 */

export const COMPUTE_VERSION = '2.105';
export const VOLUME_VERSION = '3.71';

export interface AdminSession {
  token: string;
  projectId: string;
}

export interface NovaServer {
  id: string;
  name: string;
  status: string;
  taskState: string | null;
  /** `os-extended-volumes:volumes_attached` ids. */
  volumesAttached: string[];
}

export interface NovaMapping {
  serverId: string;
  volumeId: string;
  attachmentId: string | null;
  attachMode: string;
}

export interface CinderVolume {
  id: string;
  status: string;
  multiattach: boolean;
  /** Cinder's `attachments`: the attached ones. */
  attachments: { attachmentId: string; serverId: string | null }[];
}

export interface CinderAttachment {
  id: string;
  status: string;
  instance: string | null;
  volumeId: string;
}

export interface CloudView {
  servers: NovaServer[];
  mappings: NovaMapping[];
  volumes: CinderVolume[];
  attachments: CinderAttachment[];
}

export interface ConsistencyOptions {
  /** Statuses a settled server may have (default ACTIVE and ERROR). */
  serverStatuses?: readonly string[];
}

/** Volume statuses that are not on their way somewhere. */
const RESTING_VOLUME = new Set([
  'available',
  'in-use',
  'error',
  'error_deleting',
  'error_extending',
  'error_restoring',
  'error_managing',
]);

export async function adminSession(cloudUrl: string): Promise<AdminSession> {
  const res = await fetch(`${cloudUrl}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'admin', domain: { name: 'Default' }, password: 'admin' } },
        },
        scope: { project: { name: 'admin', domain: { name: 'Default' } } },
      },
    }),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 201) throw new Error(`admin login: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { token: { project: { id: string } } };
  return { token: res.headers.get('x-subject-token') ?? '', projectId: body.token.project.id };
}

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read loosely here
type Json = any;

async function getJson(url: string, token: string, version: string): Promise<Json> {
  const res = await fetch(url, {
    headers: { Accept: 'application/json', 'X-Auth-Token': token, 'OpenStack-API-Version': version },
    signal: AbortSignal.timeout(15_000),
  });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Every page of a collection, following `<key>_links` next. */
async function getAll(url: string, key: string, token: string, version: string): Promise<Json[]> {
  const out: Json[] = [];
  let next: string | undefined = url;
  while (next) {
    const body = await getJson(next, token, version);
    out.push(...(body[key] as Json[]));
    next = (body[`${key}_links`] as { rel: string; href: string }[] | undefined)?.find(
      (l) => l.rel === 'next',
    )?.href;
  }
  return out;
}

/** Everything the checks look at, read through the APIs. */
export async function readCloud(cloudUrl: string, session?: AdminSession): Promise<CloudView> {
  const admin = session ?? (await adminSession(cloudUrl));
  const compute = `compute ${COMPUTE_VERSION}`;
  const volume = `volume ${VOLUME_VERSION}`;
  const cinder = `${cloudUrl}/volume/v3/${admin.projectId}`;
  const rawServers = await getAll(
    `${cloudUrl}/compute/v2.1/servers/detail?all_tenants=1`,
    'servers',
    admin.token,
    compute,
  );
  const servers: NovaServer[] = rawServers.map((s) => ({
    id: s.id,
    name: s.name,
    status: s.status,
    taskState: s['OS-EXT-STS:task_state'] ?? null,
    volumesAttached: ((s['os-extended-volumes:volumes_attached'] ?? []) as { id: string }[]).map((v) => v.id),
  }));
  const mappings: NovaMapping[] = [];
  for (const s of servers) {
    const body = await getJson(
      `${cloudUrl}/compute/v2.1/servers/${s.id}/os-volume_attachments`,
      admin.token,
      compute,
    );
    for (const m of body.volumeAttachments as Json[]) {
      mappings.push({
        serverId: s.id,
        volumeId: m.volumeId,
        attachmentId: m.attachment_id ?? null,
        attachMode: m.attach_mode,
      });
    }
  }
  const volumes: CinderVolume[] = (
    await getAll(`${cinder}/volumes/detail?all_tenants=1`, 'volumes', admin.token, volume)
  ).map((v) => ({
    id: v.id,
    status: v.status,
    multiattach: v.multiattach === true,
    attachments: (v.attachments as Json[]).map((a) => ({
      attachmentId: a.attachment_id,
      serverId: a.server_id ?? null,
    })),
  }));
  const attachments: CinderAttachment[] = (
    await getAll(`${cinder}/attachments?all_tenants=1`, 'attachments', admin.token, volume)
  ).map((a) => ({ id: a.id, status: a.status, instance: a.instance ?? null, volumeId: a.volume_id }));
  return { servers, mappings, volumes, attachments };
}

/** What is inconsistent, one sentence each; empty when the cloud is consistent. */
export function consistencyProblems(view: CloudView, opts: ConsistencyOptions = {}): string[] {
  const problems: string[] = [];
  const allowed = opts.serverStatuses ?? ['ACTIVE', 'ERROR'];
  const servers = new Map(view.servers.map((s) => [s.id, s]));
  const attachments = new Map(view.attachments.map((a) => [a.id, a]));

  for (const s of view.servers) {
    if (!allowed.includes(s.status)) problems.push(`server ${s.id} is ${s.status}`);
    if (s.taskState !== null) problems.push(`server ${s.id} still has task_state ${s.taskState}`);
    const mapped = view.mappings.filter((m) => m.serverId === s.id).map((m) => m.volumeId);
    if ([...s.volumesAttached].sort().join() !== [...mapped].sort().join()) {
      problems.push(
        `server ${s.id}: volumes_attached [${s.volumesAttached}] but os-volume_attachments [${mapped}]`,
      );
    }
  }

  for (const a of view.attachments) {
    if (a.status !== 'attached') problems.push(`attachment ${a.id} of volume ${a.volumeId} is ${a.status}`);
    if (a.instance !== null && !servers.has(a.instance)) {
      problems.push(
        `attachment ${a.id} of volume ${a.volumeId} points at server ${a.instance}, which is gone`,
      );
    }
    const held = view.mappings.some(
      (m) => m.attachmentId === a.id && m.serverId === a.instance && m.volumeId === a.volumeId,
    );
    if (a.instance !== null && !held)
      problems.push(`attachment ${a.id} of volume ${a.volumeId} is not a mapping Nova knows`);
  }

  for (const m of view.mappings) {
    const a = m.attachmentId ? attachments.get(m.attachmentId) : undefined;
    if (!a || a.volumeId !== m.volumeId || a.instance !== m.serverId) {
      problems.push(
        `server ${m.serverId} maps volume ${m.volumeId} to attachment ${m.attachmentId}, which Cinder does not have`,
      );
    }
  }

  for (const v of view.volumes) {
    if (!RESTING_VOLUME.has(v.status)) {
      problems.push(`volume ${v.id} is ${v.status}`);
      continue;
    }
    const own = view.attachments.filter((a) => a.volumeId === v.id);
    const attached = own.filter((a) => a.status === 'attached');
    if (v.status === 'in-use' && attached.length === 0)
      problems.push(`volume ${v.id} is in-use with no attachment`);
    if (v.status === 'available' && own.length > 0) {
      problems.push(`volume ${v.id} is available with ${own.length} attachment(s)`);
    }
    if (!v.multiattach && own.length > 1)
      problems.push(`volume ${v.id} is not multiattach but has ${own.length} attachments`);
    const listed = v.attachments.map((a) => `${a.attachmentId}@${a.serverId}`).sort();
    const expected = attached.map((a) => `${a.id}@${a.instance}`).sort();
    if (listed.join() !== expected.join()) {
      problems.push(`volume ${v.id} lists attachments [${listed}] but Cinder has [${expected}] attached`);
    }
  }
  return problems;
}

/**
 * Polls until the cloud is consistent and returns what it read then; throws with the problems
 * still seen when `timeoutMs` runs out. A read that fails (the cloud restarting) counts as a miss.
 */
export async function waitUntilConsistent(
  cloudUrl: string,
  opts: ConsistencyOptions & { timeoutMs?: number; intervalMs?: number } = {},
): Promise<CloudView> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let last: string[] = [];
  for (;;) {
    try {
      const view = await readCloud(cloudUrl);
      last = consistencyProblems(view, opts);
      if (last.length === 0) return view;
    } catch (err) {
      last = [`could not read the cloud: ${err instanceof Error ? err.message : String(err)}`];
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the cloud is still inconsistent after ${opts.timeoutMs ?? 30_000} ms:\n${last.slice(0, 30).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 250));
  }
}
