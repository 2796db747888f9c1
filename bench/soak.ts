/**
 * A bounded soak of the bundled cloud on PostgreSQL: one or two cloud processes on one scratch
 * database, a working set of servers and volumes, then SOAK_CLIENTS clients for SOAK_SECONDS doing
 * reads and attach/detach cycles spread over the processes. Prints throughput and latency per kind
 * of operation, the answers by class, a consistency check of Nova against Cinder at the end, and a
 * verdict; exits non-zero on any 5xx, network error, unexpected answer or inconsistency.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run soak
 *   SOAK_SECONDS=60 SOAK_CLIENTS=32 SOAK_PROCESSES=1 npm run soak
 *
 * Settings: SOAK_SECONDS (default 120, at most 600), SOAK_CLIENTS (16), SOAK_PROCESSES (1 or 2,
 * default 2), SOAK_SERVERS (40, at least SOAK_CLIENTS), SOAK_SHARED_VOLUMES (4 multiattach),
 * SOAK_PLAIN_VOLUMES (4), SOAK_CYCLE_SHARE (fraction of client iterations that are attach/detach
 * cycles, 0.25), SOAK_BACKEND_DELAY_MS (the emulated hosts' step time, 0). The database is
 * dropped at the end, also on Ctrl-C.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fmtInt, fmtMs, machine, p99, quantile } from './lib/stats.js';
import {
  type ApiResponse,
  CINDER,
  CloudApi,
  checkConsistency,
  createVolume,
  imageId,
  inPool,
  loginAdmin,
  multiCreate,
  NOVA,
  NOVA_ATTACHMENT_IDS,
  type OutputWatch,
  sleep,
  waitActive,
  watchOutput,
} from '../test/reliability/helpers/cloud-load.js';
import {
  type AppProcess,
  type ScratchDatabase,
  scratchDatabase,
  spawnCloud,
} from '../test/reliability/helpers/processes.js';

const num = (name: string, fallback: number, min: number, max: number): number => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) {
    console.error(`${name} must be a number from ${min} to ${max} (got ${raw})`);
    process.exit(2);
  }
  return n;
};

const SECONDS = Math.min(600, num('SOAK_SECONDS', 120, 1, 100_000));
const CLIENTS = num('SOAK_CLIENTS', 16, 1, 150);
const PROCESSES = num('SOAK_PROCESSES', 2, 1, 2);
// Each client cycles on servers of its own (at least one), so two never race on one mapping.
const SERVERS = Math.max(CLIENTS, num('SOAK_SERVERS', 40, 1, 150));
const SHARED_VOLUMES = num('SOAK_SHARED_VOLUMES', 4, 0, 50);
const PLAIN_VOLUMES = num('SOAK_PLAIN_VOLUMES', 4, 0, 50);
const CYCLE_SHARE = num('SOAK_CYCLE_SHARE', 0.25, 0, 1);
const BACKEND_DELAY_MS = num('SOAK_BACKEND_DELAY_MS', 0, 0, 10_000);
/** How long one cycle may wait on the cloud (attach done, detach accepted, detach done). */
const CYCLE_LIMIT_MS = 30_000;
const POLL_MS = 10;

const log = (line: string) => process.stderr.write(`${line}\n`);

// --- Answers -------------------------------------------------------------------------------------

/** Refusals a correct cloud gives under this load, quoted from Nova and Cinder. */
const EXPECTED_REFUSALS: { reason: string; status: number; pattern: RegExp }[] = [
  // Capture 50: a plain volume another server holds.
  { reason: 'plain volume already attached', status: 400, pattern: /is already attached to instances: / },
  // Cinder's reserve while another server's detach of the shared volume is under way.
  {
    reason: 'shared volume detaching, attach refused',
    status: 400,
    pattern:
      /status must be available or in-use or downloading or reserved to reserve, but the current status is detaching/,
  },
  // begin_detaching while another detach of the same volume is under way (reference 1.8).
  {
    reason: 'shared volume detaching, detach refused (retried)',
    status: 400,
    pattern: /Unable to detach volume\./,
  },
];

type Outcome = { kind: 'ok' } | { kind: 'refused'; reason: string } | { kind: 'error'; reason: string };

function classify(res: ApiResponse, okStatuses: readonly number[]): Outcome {
  if (okStatuses.includes(res.status)) return { kind: 'ok' };
  if (res.status >= 500) return { kind: 'error', reason: `${res.status}` };
  const message = String(
    Object.values((res.body ?? {}) as Record<string, { message?: string }>)[0]?.message ?? '',
  );
  const known = EXPECTED_REFUSALS.find((r) => r.status === res.status && r.pattern.test(message));
  if (known) return { kind: 'refused', reason: known.reason };
  return { kind: 'error', reason: `unexpected ${res.status}: ${message.slice(0, 160)}` };
}

class Tally {
  readonly latencies = new Map<string, number[]>();
  readonly refusals = new Map<string, number>();
  readonly errors = new Map<string, number>();
  requests = 0;

  add(kind: string, ms: number): void {
    const list = this.latencies.get(kind) ?? [];
    list.push(ms);
    this.latencies.set(kind, list);
  }

  count(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }
}

// --- The run -------------------------------------------------------------------------------------

let database: ScratchDatabase | undefined;
let clouds: AppProcess[] = [];
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.allSettled(clouds.map((c) => c.stop()));
    if (database) {
      await database.drop().catch((err) => log(`could not drop ${database?.url}: ${err}`));
      log(`dropped ${new URL(database.url).pathname.slice(1)}`);
    }
  })();
  return cleaning;
}

// `on`, not `once`: under npm and tsx, Ctrl-C arrives more than once (the group's signal and the
// relayed one), and a second, unhandled SIGINT would kill the script before the drop.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (cleaning) return;
    log(`\n${signal}: stopping the clouds and dropping the database`);
    void cleanup().then(() => process.exit(130));
  });
}

interface WorkingSet {
  servers: string[];
  shared: string[];
  plain: string[];
}

async function seed(api: CloudApi): Promise<WorkingSet> {
  const image = await imageId(api);
  // One multi-create per process, in zone nova (hosts that can share disks).
  const perProcess = Array.from(
    { length: PROCESSES },
    (_, i) => Math.floor(SERVERS / PROCESSES) + (i < SERVERS % PROCESSES ? 1 : 0),
  );
  const reservations = await Promise.all(
    perProcess.map((count, via) =>
      multiCreate(api, via, { name: `soak-${via}`, count, image, availabilityZone: 'nova' }),
    ),
  );
  const servers = (
    await Promise.all(reservations.map((r, i) => waitActive(api, r, perProcess[i]!, 120_000)))
  ).flat();
  const shared = await inPool(
    Array.from({ length: SHARED_VOLUMES }, (_, i) => i),
    8,
    (i) => createVolume(api, i, `soak-shared-${i}`, true),
  );
  const plain = await inPool(
    Array.from({ length: PLAIN_VOLUMES }, (_, i) => i),
    8,
    (i) => createVolume(api, i, `soak-plain-${i}`, false),
  );
  return { servers, shared, plain };
}

/** CPU seconds (user + system) a process has used so far, from /proc; NaN where there is none. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, counted after the command name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

interface Client {
  id: number;
  /** Its own: no other client attaches to these. */
  servers: string[];
}

/** One client: reads and attach/detach cycles on its own servers until the deadline. */
async function runClient(api: CloudApi, set: WorkingSet, client: Client, tally: Tally, deadline: number) {
  const volumes = [...set.shared, ...set.plain];
  const timed = async (
    kind: string,
    method: string,
    path: string,
    ok: readonly number[],
    version: string,
    body?: unknown,
  ): Promise<{ res: ApiResponse; outcome: Outcome }> => {
    const via = Math.floor(Math.random() * api.urls.length);
    tally.requests++;
    let res: ApiResponse;
    try {
      res = await api.call(via, method, path, { version, ...(body === undefined ? {} : { body }) });
    } catch (err) {
      tally.count(tally.errors, `network: ${(err as Error).message}`);
      throw err;
    }
    tally.add(kind, res.ms);
    const outcome = classify(res, ok);
    if (outcome.kind === 'refused') tally.count(tally.refusals, outcome.reason);
    if (outcome.kind === 'error') tally.count(tally.errors, `${kind}: ${outcome.reason}`);
    return { res, outcome };
  };

  const reads: (() => Promise<unknown>)[] = [
    () => timed('GET /servers/detail', 'GET', '/compute/v2.1/servers/detail', [200], NOVA),
    () => timed('GET volume', 'GET', `${api.volumeBase}/volumes/${pick(volumes)}`, [200], 'volume 3.0'),
    () => timed('GET /volumes/detail', 'GET', `${api.volumeBase}/volumes/detail`, [200], 'volume 3.0'),
    () =>
      timed(
        'GET os-volume_attachments',
        'GET',
        `/compute/v2.1/servers/${pick(set.servers)}/os-volume_attachments`,
        [200],
        NOVA_ATTACHMENT_IDS,
      ),
    () => timed('GET /attachments', 'GET', `${api.volumeBase}/attachments/detail`, [200], CINDER),
    () => timed('GET topology', 'GET', '/compute/v2.1/os-emulator-topology', [200], NOVA),
  ];

  /** attach → poll until attached → detach (again while refused) → poll until detached. */
  const cycle = async () => {
    const serverId = pick(client.servers);
    const volumeId = pick(volumes);
    const started = performance.now();
    const attach = await timed(
      'POST attach',
      'POST',
      `/compute/v2.1/servers/${serverId}/os-volume_attachments`,
      [200],
      NOVA,
      { volumeAttachment: { volumeId } },
    );
    // Refused: the cycle ends here (the volume is someone else's now).
    if (attach.outcome.kind !== 'ok') return;
    let attachmentId: string | undefined;
    const cycleLimit = performance.now() + CYCLE_LIMIT_MS;
    while (!attachmentId) {
      const { res } = await timed(
        'GET volume (poll)',
        'GET',
        `${api.volumeBase}/volumes/${volumeId}`,
        [200],
        'volume 3.0',
      );
      const mine = (
        res.body?.volume?.attachments as { server_id: string; attachment_id: string }[] | undefined
      )?.find((a) => a.server_id === serverId);
      attachmentId = mine?.attachment_id;
      if (attachmentId) break;
      if (performance.now() > cycleLimit) {
        tally.count(tally.errors, 'attach never completed');
        return;
      }
      await sleep(POLL_MS);
    }
    for (;;) {
      const detach = await timed(
        'DELETE detach',
        'DELETE',
        `/compute/v2.1/servers/${serverId}/os-volume_attachments/${volumeId}`,
        [202],
        NOVA,
      );
      if (detach.outcome.kind === 'ok') break;
      if (detach.outcome.kind === 'error' || performance.now() > cycleLimit) {
        if (detach.outcome.kind !== 'error') tally.count(tally.errors, 'detach refused for too long');
        return;
      }
      await sleep(POLL_MS + Math.random() * 20);
    }
    for (;;) {
      const { res } = await timed(
        'GET os-volume_attachment (poll)',
        'GET',
        `/compute/v2.1/servers/${serverId}/os-volume_attachments/${volumeId}`,
        [200, 404],
        NOVA_ATTACHMENT_IDS,
      );
      if (res.status === 404 || res.body?.volumeAttachment?.attachment_id !== attachmentId) break;
      if (performance.now() > cycleLimit) {
        tally.count(tally.errors, 'detach never completed');
        return;
      }
      await sleep(POLL_MS);
    }
    tally.add('attach → detached cycle', performance.now() - started);
  };

  while (Date.now() < deadline) {
    try {
      if (Math.random() < CYCLE_SHARE) await cycle();
      else await pick(reads)();
    } catch {
      // Network errors are counted in `timed`; the client goes on.
      await sleep(50);
    }
  }
}

async function main(): Promise<number> {
  const base = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base || !/^postgres(ql)?:\/\//.test(base)) {
    console.error(
      'The soak needs PostgreSQL: set TEST_DATABASE_URL (or DATABASE_URL) to a postgres:// URL of a server\n' +
        'where it may create a scratch database, e.g.\n' +
        '  TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run soak',
    );
    return 2;
  }
  process.env.TEST_DATABASE_URL = base;
  const machineLine = machine();
  log(`machine: ${machineLine}`);
  log(
    `soak: ${PROCESSES} process(es), ${CLIENTS} clients, ${SECONDS} s, ${SERVERS} servers, ${SHARED_VOLUMES} shared + ${PLAIN_VOLUMES} plain volumes`,
  );

  database = await scratchDatabase('soak');
  const started = await Promise.allSettled(
    Array.from({ length: PROCESSES }, (_, i) =>
      spawnCloud({ databaseUrl: database!.url, name: `cloud-${i + 1}`, backendDelayMs: BACKEND_DELAY_MS }),
    ),
  );
  clouds = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const watches: OutputWatch[] = clouds.map(watchOutput);

  const api = new CloudApi(
    clouds.map((c) => c.url),
    { maxSockets: CLIENTS + 8 },
  );
  await loginAdmin(api);
  const set = await seed(api);
  log(`working set ready: ${set.servers.length} servers, ${set.shared.length + set.plain.length} volumes`);
  const seedFaults = api.faults.length;

  const tally = new Tally();
  const clients: Client[] = Array.from({ length: CLIENTS }, (_, id) => ({
    id,
    servers: set.servers.filter((_, i) => i % CLIENTS === id),
  }));
  const cpuBefore = clouds.map((c) => cpuSeconds(c.child.pid));
  const t0 = performance.now();
  const deadline = Date.now() + SECONDS * 1000;
  const progress = setInterval(() => {
    const s = (performance.now() - t0) / 1000;
    log(`  ${s.toFixed(0)} s: ${fmtInt(tally.requests)} requests, ${fmtInt(tally.requests / s)}/s`);
  }, 15_000);
  await Promise.all(clients.map((c) => runClient(api, set, c, tally, deadline)));
  clearInterval(progress);
  const elapsed = (performance.now() - t0) / 1000;
  const cloudCpu = clouds.reduce((sum, c, i) => sum + cpuSeconds(c.child.pid) - cpuBefore[i]!, 0);

  log('checking consistency...');
  const problems = await checkConsistency(api, [...set.shared, ...set.plain], set.servers);

  // --- Report --------------------------------------------------------------------------------------
  const rows = [...tally.latencies.entries()].sort((a, b) => b[1].length - a[1].length);
  const out: string[] = [];
  out.push(`## Soak: ${PROCESSES} cloud process${PROCESSES > 1 ? 'es' : ''} on one PostgreSQL`);
  out.push('');
  out.push(`${machineLine}, ${loadavg()[0]!.toFixed(1)} at the end`);
  out.push('');
  out.push(
    `${CLIENTS} clients for ${elapsed.toFixed(0)} s over ${PROCESSES} process(es) (requests spread at random); ` +
      `${set.servers.length} servers, ${set.shared.length} multiattach + ${set.plain.length} plain volumes; ` +
      `${Math.round(CYCLE_SHARE * 100)}% of client iterations are attach/detach cycles, the rest one read; ` +
      `backend delay ${BACKEND_DELAY_MS} ms.`,
  );
  out.push('');
  out.push('| operation | count | ops/s | p50 ms | p99 ms |');
  out.push('|---|---:|---:|---:|---:|');
  for (const [kind, list] of rows) {
    out.push(
      `| ${kind} | ${fmtInt(list.length)} | ${(list.length / elapsed).toFixed(1)} | ${fmtMs(quantile(list, 0.5))} | ${fmtMs(p99(list))} |`,
    );
  }
  const all = rows.flatMap(([kind, list]) => (kind.includes('cycle') ? [] : list));
  out.push(
    `| **all requests** | ${fmtInt(tally.requests)} | **${(tally.requests / elapsed).toFixed(1)}** | ${fmtMs(quantile(all, 0.5))} | ${fmtMs(p99(all))} |`,
  );
  out.push('');
  out.push(
    `Cloud processes' CPU: ${cloudCpu.toFixed(1)} s in ${elapsed.toFixed(0)} s (${((cloudCpu / elapsed) * 100).toFixed(0)}% of one core), ` +
      `${fmtMs((cloudCpu * 1000) / tally.requests)} ms per request (PostgreSQL's own CPU not included).`,
  );
  out.push('');
  out.push('| answers | count |');
  out.push('|---|---:|');
  const statusLine = [...api.statuses.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}: ${fmtInt(n)}`)
    .join(', ');
  out.push(`| HTTP statuses (including set-up) | ${statusLine} |`);
  for (const [reason, n] of tally.refusals) out.push(`| refused (expected): ${reason} | ${fmtInt(n)} |`);
  const fiveXx = api.faults.filter((f) => f.status !== 'network').length;
  const network = api.faults.filter((f) => f.status === 'network').length;
  out.push(`| **errors: 5xx** | ${fiveXx} |`);
  out.push(`| **errors: network** | ${network} |`);
  for (const [reason, n] of tally.errors) {
    if (!reason.startsWith('network') && !/: 5\d\d$/.test(reason))
      out.push(`| **errors: ${reason}** | ${n} |`);
  }
  const logged = watches.flatMap((w) => w.errors);
  out.push(`| error lines logged by the clouds | ${logged.length} |`);
  out.push('');
  const unexpected = [...tally.errors.entries()].filter(
    ([r]) => !r.startsWith('network') && !/: 5\d\d$/.test(r),
  );
  const consistent = problems.length === 0;
  const pass = fiveXx === 0 && network === 0 && unexpected.length === 0 && consistent && logged.length === 0;
  out.push(
    `Consistency at the end (every volume's status and attachments against Cinder's records and every server's os-volume_attachments, through ${PROCESSES === 2 ? 'both processes' : 'the process'}): ${consistent ? 'consistent' : `**${problems.length} problems**`}.`,
  );
  out.push('');
  out.push(`**Verdict: ${pass ? 'PASS' : 'FAIL'}**`);
  console.log(out.join('\n'));
  if (!consistent) log(problems.slice(0, 20).join('\n'));
  if (api.faults.length > 0)
    log(
      api.faults
        .slice(0, 10)
        .map((f) => `${f.method} ${f.path}: ${f.status} ${f.text}`)
        .join('\n'),
    );
  if (logged.length > 0) log(logged.slice(0, 5).join('\n'));
  if (seedFaults > 0) log(`${seedFaults} faults during set-up`);
  api.close();
  return pass ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (err) {
  log(`soak failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(code);
