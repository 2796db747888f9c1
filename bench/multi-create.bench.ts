/**
 * N servers on one shared volume: one multi-create request at compute 2.105 (min_count =
 * max_count = N, the volume in every server's mappings) against what every other dashboard must
 * do, N single creates followed by N attaches. Time from the first request to every server ACTIVE
 * and every attachment `attached` on the volume, at N = 10, 50 and 200.
 *
 *   npx tsx bench/multi-create.bench.ts [--quick]
 *   BENCH_RUNS=7 BENCH_MULTI_CREATE_SIZES=10,50 npx tsx bench/multi-create.bench.ts
 */
import {
  type BenchCloud,
  type BenchHttp,
  type BenchSession,
  cpuClock,
  createSharedVolume,
  ENGINE_LABEL,
  login,
  pool,
  sleep,
  startBenchCloud,
} from './lib/cloud-fixture.js';
import { addComputeHosts, seedState } from './lib/seed-scale.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { fmtInt, fmtMs, median, stopwatch } from './lib/stats.js';
import type { BenchContext, BenchSection, BenchTable, BenchVerdict, Engine } from './lib/types.js';

/** Requests in flight for the baseline's creates and attaches (Horizon itself sends one at a time). */
const BASELINE_CONCURRENCY = 8;
const COMPUTE = 'compute 2.105';
const VOLUME = 'volume 3.54';
const SPEEDUP_TARGET = 10;
const SPEEDUP_AT = 50;
/** "Flat": per-server time at the largest N within this factor of the smallest N's. */
const FLAT_FACTOR = 1.5;
const FLAVOR = '42';
/** Every server goes to this zone, where every host can share disks (`az2` has a baremetal one). */
const ZONE = 'nova';
/** Hosts added to the zone, so 2 × 200 servers fit with room to spare (m1.nano: 1 vCPU each). */
const EXTRA_HOSTS = 20;

interface Sample {
  wallMs: number;
  cpuMs: number;
  polls: number;
  /** Multi-create: when the cloud's backend had nothing left to do (not visible to a client). */
  settledMs?: number;
  /** Baseline: when the last server was ACTIVE, before the first attach. */
  createPhaseMs?: number;
  /** Baseline: attach requests retried because the volume was busy. */
  retries?: number;
}

/** Between polls: short, so the clock stops soon after the work is done; one poll in flight at a time. */
const POLL_INTERVAL_MS = 2;

/** Polls `probe` until it says done; returns the number of polls. */
async function pollUntil(probe: () => Promise<boolean>): Promise<number> {
  for (let polls = 1; ; polls++) {
    if (await probe()) return polls;
    if (polls > 200_000) throw new Error('gave up polling');
    await sleep(POLL_INTERVAL_MS);
  }
}

interface VolumeShow {
  volume: { status: string; attachments: { server_id: string }[] };
}
interface ServerList {
  servers: { id: string; status: string; fault?: { message: string } }[];
}

async function attachedCount(http: BenchHttp, s: BenchSession, volumeId: string): Promise<number> {
  const v = await http.json<VolumeShow>('GET', `${s.volumeBase}/volumes/${volumeId}`, {
    token: s.token,
    version: VOLUME,
  });
  return v.volume.attachments.length;
}

/** True when `count` servers match and all are ACTIVE; throws on ERROR. */
async function allActive(http: BenchHttp, s: BenchSession, query: string, count: number): Promise<boolean> {
  const list = await http.json<ServerList>('GET', `/compute/v2.1/servers/detail?${query}&limit=1000`, {
    token: s.token,
    version: COMPUTE,
  });
  const failed = list.servers.find((x) => x.status === 'ERROR');
  if (failed) throw new Error(`server ${failed.id} ERROR: ${failed.fault?.message ?? ''}`);
  return list.servers.length === count && list.servers.every((x) => x.status === 'ACTIVE');
}

async function multiCreate(bc: BenchCloud, s: BenchSession, image: string, n: number, tag: string) {
  const { http } = bc;
  const volumeId = await createSharedVolume(http, s, `mc-${tag}`);
  const cpu = cpuClock();
  const t = stopwatch();
  let settledMs = Number.NaN;
  const { reservation_id } = await http.json<{ reservation_id: string }>('POST', '/compute/v2.1/servers', {
    token: s.token,
    version: COMPUTE,
    body: {
      server: {
        name: `mc-${tag}`,
        imageRef: image,
        flavorRef: FLAVOR,
        networks: 'none',
        availability_zone: ZONE,
        min_count: n,
        max_count: n,
        return_reservation_id: true,
        block_device_mapping_v2: [
          { source_type: 'image', destination_type: 'local', uuid: image, boot_index: 0 },
          {
            source_type: 'volume',
            destination_type: 'volume',
            uuid: volumeId,
            boot_index: -1,
            delete_on_termination: false,
            attach_mode: 'rw',
          },
        ],
      },
    },
    expect: 202,
  });
  const settled = bc.settle().then(() => {
    settledMs = t();
  });
  // The attachments complete before each server goes ACTIVE: watch the volume, then the servers.
  let polls = await pollUntil(async () => (await attachedCount(http, s, volumeId)) === n);
  polls += await pollUntil(() => allActive(http, s, `reservation_id=${reservation_id}`, n));
  const sample: Sample = { wallMs: t(), cpuMs: cpu(), polls };
  await settled;
  sample.settledMs = settledMs;
  return { sample, volumeId, query: `reservation_id=${reservation_id}` };
}

async function baseline(bc: BenchCloud, s: BenchSession, image: string, n: number, tag: string) {
  const { http } = bc;
  const volumeId = await createSharedVolume(http, s, `base-${tag}`);
  const name = `base-${tag}-`;
  const cpu = cpuClock();
  const t = stopwatch();
  const ids = await pool(n, BASELINE_CONCURRENCY, async (i) => {
    const r = await http.json<{ server: { id: string } }>('POST', '/compute/v2.1/servers', {
      token: s.token,
      version: COMPUTE,
      body: {
        server: {
          name: `${name}${i}`,
          imageRef: image,
          flavorRef: FLAVOR,
          networks: 'none',
          availability_zone: ZONE,
        },
      },
      expect: 202,
    });
    return r.server.id;
  });
  const query = `name=${encodeURIComponent(`^${name}`)}`;
  let polls = await pollUntil(() => allActive(http, s, query, n));
  const createPhaseMs = t();
  let retries = 0;
  await pool(n, BASELINE_CONCURRENCY, async (i) => {
    for (;;) {
      const res = await http.request('POST', `/compute/v2.1/servers/${ids[i]}/os-volume_attachments`, {
        token: s.token,
        version: COMPUTE,
        body: { volumeAttachment: { volumeId, attach_mode: 'rw' } },
      });
      if (res.status === 202) return;
      // A cloud without the fix for bug 1747985 refuses while another attach is in flight.
      if (res.status === 400 && /reserved|attaching/.test(res.body.toString())) {
        retries++;
        await sleep(1);
        continue;
      }
      throw new Error(`attach: ${res.status} ${res.body.toString().slice(0, 300)}`);
    }
  });
  polls += await pollUntil(async () => (await attachedCount(http, s, volumeId)) === n);
  return { sample: { wallMs: t(), cpuMs: cpu(), polls, createPhaseMs, retries } as Sample, volumeId, query };
}

/** Deletes a run's servers and its volume (not timed), so every run starts from the same cloud. */
async function cleanUp(bc: BenchCloud, s: BenchSession, query: string, volumeId: string) {
  const { http } = bc;
  const list = await http.json<ServerList>('GET', `/compute/v2.1/servers?${query}&limit=1000`, {
    token: s.token,
    version: COMPUTE,
  });
  await pool(list.servers.length, BASELINE_CONCURRENCY, (i) =>
    http.json('DELETE', `/compute/v2.1/servers/${list.servers[i]!.id}`, {
      token: s.token,
      version: COMPUTE,
      expect: 204,
    }),
  );
  await bc.settle();
  await http.json('DELETE', `${s.volumeBase}/volumes/${volumeId}`, { token: s.token, expect: 202 });
  await bc.settle();
}

interface SizeResult {
  n: number;
  multi: Sample[];
  base: Sample[];
}

/** N = 10, 50, 200 (10 and 50 with --quick), or BENCH_MULTI_CREATE_SIZES. */
const sizesFor = (ctx: BenchContext) =>
  (process.env.BENCH_MULTI_CREATE_SIZES ?? (ctx.quick ? '10,50' : '10,50,200')).split(',').map(Number);

async function benchEngine(engine: Engine, ctx: BenchContext): Promise<SizeResult[]> {
  const bc = await startBenchCloud(engine, ctx);
  try {
    await addComputeHosts(bc.cloud, await seedState(bc.cloud), EXTRA_HOSTS, ZONE);
    const s = await login(bc.http, 'demo');
    const images = await bc.http.json<{ images: { id: string }[] }>('GET', '/image/v2/images', {
      token: s.token,
    });
    const image = images.images[0]!.id;
    // Warm-up (JIT, statement caches, the pg pool), not counted.
    for (const f of [multiCreate, baseline]) {
      const w = await f(bc, s, image, 10, 'warm');
      await cleanUp(bc, s, w.query, w.volumeId);
    }
    const out: SizeResult[] = [];
    for (const n of sizesFor(ctx)) {
      const runs = n >= 200 ? Math.min(ctx.runs, 3) : ctx.runs;
      const r: SizeResult = { n, multi: [], base: [] };
      for (let i = 0; i < runs; i++) {
        // Alternate which goes first, so drift in the box's load hits both sides alike.
        const order = i % 2 === 0 ? (['multi', 'base'] as const) : (['base', 'multi'] as const);
        for (const side of order) {
          const tag = `${n}-${i}`;
          const res =
            side === 'multi' ? await multiCreate(bc, s, image, n, tag) : await baseline(bc, s, image, n, tag);
          r[side].push(res.sample);
          ctx.log(
            `multi-create ${engine} N=${n} run ${i + 1}/${runs} ${side}: ${fmtMs(res.sample.wallMs)} ms`,
          );
          await cleanUp(bc, s, res.query, res.volumeId);
        }
      }
      out.push(r);
    }
    return out;
  } finally {
    await bc.close();
  }
}

const med = (xs: Sample[], f: (x: Sample) => number | undefined) => median(xs.map((x) => f(x) ?? Number.NaN));

export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  const rows: string[][] = [];
  const verdicts: BenchVerdict[] = [];
  const runsNote: string[] = [];
  for (const engine of ctx.engines) {
    const results = await benchEngine(engine, ctx);
    for (const r of results) {
      const multi = med(r.multi, (x) => x.wallMs);
      const base = med(r.base, (x) => x.wallMs);
      rows.push([
        ENGINE_LABEL[engine],
        String(r.n),
        String(r.multi.length),
        fmtMs(multi),
        fmtMs(multi / r.n),
        fmtMs(med(r.multi, (x) => x.settledMs)),
        fmtMs(med(r.multi, (x) => x.cpuMs) / r.n),
        fmtInt(med(r.multi, (x) => x.polls)),
        fmtMs(base),
        fmtMs(base / r.n),
        fmtMs(med(r.base, (x) => x.createPhaseMs)),
        fmtMs(med(r.base, (x) => x.cpuMs) / r.n),
        fmtInt(med(r.base, (x) => x.polls)),
        `${(base / multi).toFixed(1)}×`,
      ]);
    }
    if (runsNote.length === 0)
      runsNote.push(results.map((r) => `${r.multi.length} at N = ${r.n}`).join(', '));
    const at = results.find((r) => r.n === SPEEDUP_AT);
    if (at) {
      const speedup = med(at.base, (x) => x.wallMs) / med(at.multi, (x) => x.wallMs);
      verdicts.push({
        target: `${ENGINE_LABEL[engine]}: one request at least ${SPEEDUP_TARGET}× faster than N creates + N attaches at N = ${SPEEDUP_AT}`,
        measured: `${speedup.toFixed(1)}×`,
        met: speedup >= SPEEDUP_TARGET,
      });
    }
    const first = results[0];
    const last = results.at(-1);
    if (first && last && last !== first) {
      const perFirst = med(first.multi, (x) => x.wallMs) / first.n;
      const perLast = med(last.multi, (x) => x.wallMs) / last.n;
      verdicts.push({
        target: `${ENGINE_LABEL[engine]}: time per server flat from N = ${first.n} to ${last.n} (at ${last.n} within ${FLAT_FACTOR}× of at ${first.n})`,
        measured: `${fmtMs(perFirst)} → ${fmtMs(perLast)} ms per server (${(perLast / perFirst).toFixed(2)}×)`,
        met: perLast <= perFirst * FLAT_FACTOR,
      });
    }
  }
  const table: BenchTable = {
    title: 'N servers on one shared volume: one request vs. N creates + N attaches',
    columns: [
      'engine',
      'N',
      'runs',
      'one request ms',
      'ms / server',
      'backend settled ms',
      'CPU ms / server',
      'polls',
      'N creates + N attaches ms',
      'ms / server',
      'of which creates ms',
      'CPU ms / server',
      'polls',
      'speed-up',
    ],
    rows,
  };
  return [
    {
      title: 'Multi-create',
      command: 'npx tsx bench/multi-create.bench.ts',
      method: [
        'A fresh bundled cloud per engine in the bench process (emulated host delay 0, logs off; SQLite in a',
        'temporary file, PostgreSQL in a schema of its own), driven over HTTP on keep-alive sockets as `demo`.',
        '**One request**: `POST /servers` at compute 2.105 with `min_count = max_count = N`, an image at boot',
        'index 0 and a new multiattach volume at boot index -1 (`attach_mode rw`), as the dashboard sends it,',
        `in zone \`${ZONE}\` (the seeded hosts there plus ${EXTRA_HOSTS} more, all able to share disks).`,
        `**Baseline**: N single \`POST /servers\` (${BASELINE_CONCURRENCY} in flight), wait until all are ACTIVE,`,
        `then N \`POST /servers/{id}/os-volume_attachments\` (${BASELINE_CONCURRENCY} in flight), wait until the`,
        'volume lists N attachments. Clocks run from the first request until the volume lists all N',
        'attachments and every server is ACTIVE. Polling: one list call per poll (`GET /volumes/{id}`, then',
        `\`GET /servers/detail?reservation_id=\` or \`?name=\`), one poll in flight, ${POLL_INTERVAL_MS} ms between`,
        'an answer and the next poll; "backend settled" is when the cloud\'s own task queue emptied, which',
        'polling cannot beat. Servers and the volume are deleted after every run, untimed; the two sides',
        `alternate which goes first. Runs: ${runsNote[0] ?? ''}. CPU is this process's (client and cloud;`,
        "PostgreSQL's own is not in it).",
      ].join(' '),
      tables: [table],
      verdicts,
      notes: [
        'How the target was reached: at first one request was only 2–3× faster, because both sides did the ' +
          'same per-server backend work (place, reserve, connect and complete, BUILD → ACTIVE), each step in a ' +
          'transaction of its own, about 39 statements per server; one request only saved the HTTP requests. ' +
          'The scheduler also read every live server for each placement, O(N²) for a multi-create (usage is ' +
          "now summed in SQL per host). A 2.105 multi-create is now built as one batch, as Nova's conductor " +
          'places all instances of a request in one select_destinations call: one transaction writes all ' +
          'servers and mappings and reserves the volume for each, then one places them all (hosts and usage ' +
          "read once, each claim subtracted), one connects and completes every attachment (the volume's " +
          'status settled once) and one makes them ACTIVE: about 44 statements per request whatever N is. ' +
          'Each server still passes through the same states, so a crash mid-batch is resumed server by server.',
        'The baseline is generous: 8 requests in flight where Horizon sends one at a time, and no user ' +
          'think-time between the creates and the attaches. On SQLite the margin over 10× at N = 50 is thin ' +
          'when the machine is loaded, since the baseline then speeds up relative to the batched path.',
      ],
    },
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
