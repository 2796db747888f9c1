/**
 * What the BFF adds to the reads the dashboard makes on page load: each BFF endpoint against the
 * same answer fetched straight from the cloud by a client doing what the BFF does (the same calls at
 * the same microversions, as parallel as the data allows, then the same join).
 *
 *   npm run bench -- --only bff                  # in the suite (writes docs/benchmarks.md)
 *   npx tsx bench/bff-overhead.bench.ts [--quick] # alone; or: npm run bench:bff
 *   BENCH_BFF_VOLUMES=200 BENCH_BFF_REQUESTS=400 npx tsx bench/bff-overhead.bench.ts
 *
 * The cloud and the BFF run as their own processes (as in production) on a fresh database of each
 * engine, logging warnings only. Requests are sequential and the two sides alternate, so drift in
 * the machine's load hits both alike. Times are to the last byte, parsed.
 */
import {
  type BffSession,
  bffSignIn,
  type CloudLogin,
  cloudLogin,
  ENGINE_NAME,
  httpGet,
  osHeaders,
  processCpuMs,
  type Seeded,
  seedVolumesAndServers,
  startStack,
} from './lib/bff-stack.js';
import { fileURLToPath } from 'node:url';
import { isMain, runStandalone } from './lib/standalone.js';
import { fmtMs, median, p99 } from './lib/stats.js';
import type { BenchContext, BenchSection, BenchTable, BenchVerdict, Engine } from './lib/types.js';

/** Preloaded into the BFF to profile it (`--cpu-prof` is not allowed in NODE_OPTIONS). */
const CPU_PROFILER = fileURLToPath(new URL('./lib/cpu-profile.mjs', import.meta.url));

/** The BFF issue's target: the BFF adds less than 15% at the median. */
const TARGET = 0.15;

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The client library a side uses: node:http with keep-alive (as the BFF itself), or fetch. */
type Transport = 'http' | 'fetch';
type Get = <T>(url: string, headers: Record<string, string>) => Promise<T>;

function getter(t: Transport, bytes: { n: number }): Get {
  return async <T>(url: string, headers: Record<string, string>) => {
    let status: number;
    let text: string;
    if (t === 'http') ({ status, text } = await httpGet(url, headers));
    else {
      const res = await fetch(url, { headers });
      status = res.status;
      text = await res.text();
    }
    if (status >= 400) throw new Error(`${url}: ${status} ${text.slice(0, 300)}`);
    bytes.n += text.length;
    return JSON.parse(text) as T;
  };
}

// --- The direct side: what a client composing the dashboard's views would do itself ----------------

interface RawVolume {
  id: string;
  name: string | null;
  attachments: { server_id: string; attachment_id: string; device: string | null }[];
}
interface RawCinderAttachment {
  id: string;
  volume_id: string;
  instance: string | null;
  status: string;
  attach_mode: string;
  attached_at: string | null;
}
interface RawServer {
  id: string;
  name: string;
  image: { id: string } | string;
}
interface RawNovaAttachment {
  volumeId: string;
  device: string | null;
  attach_mode?: string;
}

const GONE = new Set(['detached', 'deleted']);

/** Each volume's live holders from Cinder's records, with the server's name and the device. */
function joinHolds(volumes: RawVolume[], attachments: RawCinderAttachment[], servers: RawServer[]) {
  const names = new Map(servers.map((s) => [s.id, s.name]));
  const volumeById = new Map(volumes.map((v) => [v.id, v]));
  const holds = new Map<string, { volumeId: string; serverId: string; [k: string]: unknown }[]>();
  for (const a of attachments) {
    if (!a.instance || GONE.has(a.status)) continue;
    const v = volumeById.get(a.volume_id);
    const hold = {
      volumeId: a.volume_id,
      volumeName: v?.name ?? null,
      serverId: a.instance,
      serverName: names.get(a.instance) ?? null,
      mode: a.attach_mode === 'ro' ? 'ro' : 'rw',
      state: a.status,
      since: a.attached_at,
      device: v?.attachments.find((x) => x.attachment_id === a.id)?.device ?? null,
    };
    for (const key of [a.volume_id, a.instance]) holds.set(key, [...(holds.get(key) ?? []), hold]);
  }
  return holds;
}

const listUrls = (c: CloudLogin) => ({
  volumes: [`${c.volume}/volumes/detail?limit=1000`, osHeaders(c, 'volume 3.50')] as const,
  attachments: [`${c.volume}/attachments/detail?limit=1000`, osHeaders(c, 'volume 3.54')] as const,
  servers: [`${c.compute}/servers/detail?limit=1000`, osHeaders(c, 'compute 2.105')] as const,
  images: [`${c.image}/v2/images?limit=200`, osHeaders(c)] as const,
});

/** What a page shows, reduced to what both sides must agree on: rows and holders. */
interface Shape {
  rows: number;
  holds: number;
}

interface Endpoint {
  name: string;
  bffPath: (s: Seeded) => string;
  direct(c: CloudLogin, get: Get, s: Seeded): Promise<Shape>;
  bffShape(body: unknown): Shape;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET /api/volumes',
    bffPath: () => '/api/volumes',
    async direct(c, get) {
      const u = listUrls(c);
      const [v, a, s] = await Promise.all([
        get<{ volumes: RawVolume[] }>(...u.volumes),
        get<{ attachments: RawCinderAttachment[] }>(...u.attachments),
        get<{ servers: RawServer[] }>(...u.servers),
      ]);
      const holds = joinHolds(v.volumes, a.attachments, s.servers);
      const view = v.volumes.map((vol) => ({ ...vol, holds: holds.get(vol.id) ?? [] }));
      return { rows: view.length, holds: view.reduce((n, x) => n + x.holds.length, 0) };
    },
    bffShape: (body) => {
      const { volumes } = body as { volumes: { attachments: unknown[] }[] };
      return { rows: volumes.length, holds: volumes.reduce((n, v) => n + v.attachments.length, 0) };
    },
  },
  {
    name: 'GET /api/servers',
    bffPath: () => '/api/servers',
    async direct(c, get) {
      const u = listUrls(c);
      const [s, a, v, i] = await Promise.all([
        get<{ servers: RawServer[] }>(...u.servers),
        get<{ attachments: RawCinderAttachment[] }>(...u.attachments),
        get<{ volumes: RawVolume[] }>(...u.volumes),
        get<{ images: { id: string; name: string }[] }>(...u.images),
      ]);
      const holds = joinHolds(v.volumes, a.attachments, s.servers);
      const images = new Map(i.images.map((img) => [img.id, img.name]));
      const view = s.servers.map((srv) => ({
        ...srv,
        imageName: typeof srv.image === 'object' ? (images.get(srv.image.id) ?? null) : null,
        holds: holds.get(srv.id) ?? [],
      }));
      return { rows: view.length, holds: view.reduce((n, x) => n + x.holds.length, 0) };
    },
    bffShape: (body) => {
      const { servers } = body as { servers: { attachments: unknown[] }[] };
      return { rows: servers.length, holds: servers.reduce((n, s) => n + s.attachments.length, 0) };
    },
  },
  {
    name: 'GET /api/volumes/{id}',
    bffPath: (s) => `/api/volumes/${s.busiestVolume}`,
    async direct(c, get, seeded) {
      const id = seeded.busiestVolume;
      // The volume and its attachment records at once; then each holder and its Nova attachments.
      const [v, a] = await Promise.all([
        get<{ volume: RawVolume }>(`${c.volume}/volumes/${id}`, osHeaders(c, 'volume 3.50')),
        get<{ attachments: RawCinderAttachment[] }>(
          `${c.volume}/attachments/detail?volume_id=${id}&limit=1000`,
          osHeaders(c, 'volume 3.54'),
        ),
      ]);
      const holders = [
        ...new Set(a.attachments.flatMap((x) => (x.instance && !GONE.has(x.status) ? [x.instance] : []))),
      ];
      const perServer = await Promise.all(
        holders.map((sid) =>
          Promise.all([
            get<{ server: RawServer }>(`${c.compute}/servers/${sid}`, osHeaders(c, 'compute 2.105')),
            get<{ volumeAttachments: RawNovaAttachment[] }>(
              `${c.compute}/servers/${sid}/os-volume_attachments`,
              osHeaders(c, 'compute 2.105'),
            ),
          ]),
        ),
      );
      const holds = joinHolds(
        [v.volume],
        a.attachments,
        perServer.map(([s]) => s.server),
      );
      const mine = holds.get(id) ?? [];
      for (const h of mine) {
        const nova = perServer
          .find(([s]) => s.server.id === h.serverId)?.[1]
          .volumeAttachments.find((x) => x.volumeId === id);
        if (nova) Object.assign(h, { device: nova.device, mode: nova.attach_mode ?? h.mode });
      }
      return { rows: 1, holds: mine.length };
    },
    bffShape: (body) => ({ rows: 1, holds: (body as { attachments: unknown[] }).attachments.length }),
  },
];

interface Case {
  endpoint: Endpoint;
  transport: Transport;
}

/** Every endpoint with node:http on both sides; the volumes list with fetch too (the web app's client). */
const CASES: Case[] = [
  { endpoint: ENDPOINTS[0]!, transport: 'http' },
  { endpoint: ENDPOINTS[0]!, transport: 'fetch' },
  { endpoint: ENDPOINTS[1]!, transport: 'http' },
  { endpoint: ENDPOINTS[2]!, transport: 'http' },
];

const caseName = (c: Case) => `${c.endpoint.name} (${c.transport === 'http' ? 'node:http' : 'fetch'})`;

/** One run of one case: the per-request times of each side, and the BFF's CPU per request. */
interface RunResult {
  direct: number[];
  bff: number[];
  bffCpuMs: number;
  /** The bench client's own CPU per request on each side (the cloud's is the same on both). */
  directClientCpuMs: number;
  bffClientCpuMs: number;
}

interface CaseResult {
  runs: RunResult[];
  directBytes: number;
  bffBytes: number;
  shape: Shape;
}

interface EngineResult {
  engine: Engine;
  seeded: Seeded;
  cases: CaseResult[];
  /** GET /api/health: the hop alone, no session, no cloud call. */
  hop: number[];
  /** GET /api/session: the hop and the session lookup, no cloud call. */
  sessionHop: number[];
}

async function measureEngine(ctx: BenchContext, engine: Engine): Promise<EngineResult> {
  const volumes = env('BENCH_BFF_VOLUMES', ctx.quick ? 15 : 50);
  const servers = env('BENCH_BFF_SERVERS', ctx.quick ? 5 : 10);
  const requests = env('BENCH_BFF_REQUESTS', ctx.quick ? 30 : 200);
  const warmups = env('BENCH_BFF_WARMUPS', ctx.quick ? 5 : 30);
  const profile = process.env.BENCH_BFF_PROFILE;
  ctx.log(`bff ${engine}: starting the cloud and the BFF`);
  const stack = await startStack(ctx, engine, {
    prefix: 'bff',
    // BENCH_BFF_PROFILE=<dir>: a V8 CPU profile of the BFF, written when it stops.
    ...(profile
      ? { bffEnv: { NODE_OPTIONS: `--import=${CPU_PROFILER}`, BENCH_CPU_PROFILE_DIR: profile } }
      : {}),
  });
  try {
    const cloud = await cloudLogin(stack.cloud.url);
    ctx.log(`bff ${engine}: seeding ${volumes} volumes and ${servers} servers`);
    const seeded = await seedVolumesAndServers(cloud, { volumes, servers });
    const session: BffSession = await bffSignIn(stack.bff.url);
    const bffHeaders = { Cookie: session.cookie, Accept: 'application/json' };

    const sides = CASES.map((c) => {
      const directBytes = { n: 0 };
      const bffBytes = { n: 0 };
      const directGet = getter(c.transport, directBytes);
      const bffGet = getter(c.transport, bffBytes);
      const url = stack.bff.url + c.endpoint.bffPath(seeded);
      return {
        directOnce: () => c.endpoint.direct(cloud, directGet, seeded),
        bffOnce: async () => c.endpoint.bffShape(await bffGet(url, bffHeaders)),
        directBytes,
        bffBytes,
      };
    });

    // Both sides must compose the same answer.
    const results: CaseResult[] = [];
    for (const [i, c] of CASES.entries()) {
      const side = sides[i]!;
      const a = await side.directOnce();
      const b = await side.bffOnce();
      if (a.rows !== b.rows || a.holds !== b.holds) {
        throw new Error(
          `${caseName(c)}: different answers: direct ${a.rows} rows / ${a.holds} holders, BFF ${b.rows} / ${b.holds}`,
        );
      }
      results.push({ runs: [], directBytes: side.directBytes.n, bffBytes: side.bffBytes.n, shape: a });
      for (let w = 0; w < warmups; w++) {
        await side.directOnce();
        await side.bffOnce();
      }
    }

    for (let run = 0; run < ctx.runs; run++) {
      ctx.log(`bff ${engine}: run ${run + 1}/${ctx.runs}, ${requests} requests per side and endpoint`);
      for (const [i, c] of CASES.entries()) {
        const side = sides[i]!;
        const r: RunResult = { direct: [], bff: [], bffCpuMs: 0, directClientCpuMs: 0, bffClientCpuMs: 0 };
        const cpu0 = processCpuMs(stack.bff.child.pid);
        for (let k = 0; k < requests; k++) {
          // Alternate which side goes first, so neither always follows the other.
          for (const direct of k % 2 === 0 ? [true, false] : [false, true]) {
            const cpu = process.cpuUsage();
            const t0 = performance.now();
            if (direct) await side.directOnce();
            else await side.bffOnce();
            (direct ? r.direct : r.bff).push(performance.now() - t0);
            const used = process.cpuUsage(cpu);
            if (direct) r.directClientCpuMs += (used.user + used.system) / 1000 / requests;
            else r.bffClientCpuMs += (used.user + used.system) / 1000 / requests;
          }
        }
        r.bffCpuMs = (processCpuMs(stack.bff.child.pid) - cpu0) / requests;
        results[i]!.runs.push(r);
        ctx.log(
          `  ${caseName(c)}: direct ${fmtMs(median(r.direct))} ms, BFF ${fmtMs(median(r.bff))} ms at the median`,
        );
      }
    }

    const hop: number[] = [];
    const sessionHop: number[] = [];
    for (let k = 0; k < Math.max(requests, 50); k++) {
      for (const [path, times, headers] of [
        ['/api/health', hop, { Accept: 'application/json' }],
        ['/api/session', sessionHop, bffHeaders],
      ] as const) {
        const t0 = performance.now();
        const res = await httpGet(stack.bff.url + path, headers);
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
        times.push(performance.now() - t0);
      }
    }
    return { engine, seeded, cases: results, hop, sessionHop };
  } finally {
    await stack.stop();
  }
}

const pct = (x: number) => {
  const text = (x * 100).toFixed(1);
  return text === '-0.0' || text === '0.0' ? '0.0%' : `${x > 0 ? '+' : ''}${text}%`;
};

export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  const engines: EngineResult[] = [];
  for (const engine of ctx.engines) engines.push(await measureEngine(ctx, engine));

  const requests = engines[0]?.cases[0]?.runs[0]?.direct.length ?? 0;
  const table: BenchTable = {
    title: `BFF against direct calls: medians over ${ctx.runs} runs of ${requests} requests per side`,
    columns: [
      'engine',
      'endpoint (client on both sides)',
      'direct median ms',
      'BFF median ms',
      'overhead at the median',
      'direct p99 ms',
      'BFF p99 ms',
      'overhead at p99',
      'overhead at the median, each run',
    ],
    rows: [],
  };
  const cpu: BenchTable = {
    title: 'CPU per request on each path (medians over the runs; the cloud does the same work for both)',
    columns: [
      'engine',
      'endpoint (client)',
      'direct: client ms',
      'via the BFF: client ms',
      'via the BFF: BFF ms',
      'difference ms',
    ],
    rows: [],
  };
  const sizes: BenchTable = {
    title: 'What each side fetched (one request)',
    columns: [
      'engine',
      'endpoint',
      'rows / holders',
      'direct: bytes from the cloud',
      'BFF: bytes of its answer',
    ],
    rows: [],
  };
  const verdicts: BenchVerdict[] = [];
  // What the notes quote from this run.
  const figures = {
    extraCpu: [] as number[],
    directMs: [] as number[],
    overHttp: [] as number[],
    overFetch: [] as number[],
    hopMs: engines.map((e) => median(e.hop)),
    sessionMs: engines.map((e) => median(e.sessionHop) - median(e.hop)),
  };
  const range = (xs: number[], f: (x: number) => string) => {
    if (xs.length === 0) return '–';
    const [lo, hi] = [f(Math.min(...xs)), f(Math.max(...xs))];
    return lo === hi ? lo : `${lo} to ${hi}`;
  };
  const ms1 = (x: number) => x.toFixed(1);
  const pct0 = (x: number) => `${Math.round(x * 100)}%`;
  for (const e of engines) {
    for (const [i, c] of CASES.entries()) {
      const r = e.cases[i]!;
      const perRun = r.runs.map((x) => ({
        dMed: median(x.direct),
        bMed: median(x.bff),
        dP99: p99(x.direct),
        bP99: p99(x.bff),
        cpu: x.bffCpuMs,
        directClient: x.directClientCpuMs,
        bffClient: x.bffClientCpuMs,
      }));
      const overMed = perRun.map((x) => x.bMed / x.dMed - 1);
      const overP99 = perRun.map((x) => x.bP99 / x.dP99 - 1);
      const m = median(overMed);
      table.rows.push([
        ENGINE_NAME[e.engine],
        caseName(c),
        fmtMs(median(perRun.map((x) => x.dMed))),
        fmtMs(median(perRun.map((x) => x.bMed))),
        `**${pct(m)}**`,
        fmtMs(median(perRun.map((x) => x.dP99))),
        fmtMs(median(perRun.map((x) => x.bP99))),
        pct(median(overP99)),
        overMed.map(pct).join(', '),
      ]);
      if (c.transport === 'http') {
        figures.extraCpu.push(median(perRun.map((x) => x.bffClient + x.cpu - x.directClient)));
        figures.directMs.push(median(perRun.map((x) => x.dMed)));
        figures.overHttp.push(m);
      } else figures.overFetch.push(m);
      const directClient = median(perRun.map((x) => x.directClient));
      const bffClient = median(perRun.map((x) => x.bffClient));
      const bffCpu = median(perRun.map((x) => x.cpu));
      cpu.rows.push([
        ENGINE_NAME[e.engine],
        caseName(c),
        directClient.toFixed(1),
        bffClient.toFixed(1),
        bffCpu.toFixed(1),
        `${bffClient + bffCpu - directClient >= 0 ? '+' : ''}${(bffClient + bffCpu - directClient).toFixed(1)}`,
      ]);
      if (c.transport === 'http') {
        sizes.rows.push([
          ENGINE_NAME[e.engine],
          c.endpoint.name,
          `${r.shape.rows} / ${r.shape.holds}`,
          r.directBytes.toLocaleString('en-US'),
          r.bffBytes.toLocaleString('en-US'),
        ]);
      }
      verdicts.push({
        target: `BFF overhead < ${TARGET * 100}% at the median: ${caseName(c)}, ${ENGINE_NAME[e.engine]}`,
        measured: `${pct(m)} (runs ${pct(Math.min(...overMed))} to ${pct(Math.max(...overMed))})`,
        met: m < TARGET,
      });
    }
    for (const [what, times] of [
      ['GET /api/health (the hop alone: no session, no cloud call)', e.hop],
      ['GET /api/session (the hop and the session lookup, no cloud call)', e.sessionHop],
    ] as const) {
      table.rows.push([
        ENGINE_NAME[e.engine],
        what,
        '–',
        fmtMs(median(times)),
        '–',
        '–',
        fmtMs(p99(times)),
        '–',
        '–',
      ]);
    }
  }
  const seeded = engines[0]?.seeded;
  return [
    {
      title: 'BFF: overhead against calling the cloud directly',
      command: 'npm run bench -- --only bff',
      method:
        `The bundled cloud and the BFF run as two processes (as deployed: \`node --import tsx\`, ` +
        `\`LOG_LEVEL=warn\`, emulated backends without delay) on a fresh database of each engine; on ` +
        `PostgreSQL the BFF keeps its sessions in the same database, as \`npm start\` does with a ` +
        `postgres:// \`DATABASE_URL\`. Seeded through the cloud's API as \`demo\`: ` +
        `${seeded?.volumes.length ?? '?'} volumes (a third multiattach, held by 2–4 servers with every ` +
        `other holder read-only; half the rest held by one server) on ${seeded?.servers.length ?? '?'} ` +
        `servers, ${seeded?.attachments ?? '?'} attachments. One side asks the BFF, signed in as ` +
        `\`demo\`, for a page's data: the volumes list, the servers list and the detail of the volume ` +
        `with the most holders. The other side makes the same cloud calls at the same microversions ` +
        `(\`GET /volumes/detail\` 3.50, \`/attachments/detail\` 3.54, \`/servers/detail\` 2.105, ` +
        `\`/v2/images\`; for one volume: the volume and its attachment records, then each holder and ` +
        `its Nova attachments), in parallel where the data allows, then the same join; both sides are ` +
        `checked to give the same rows and holders. Each run: ${requests} sequential requests per side ` +
        `and endpoint, the sides alternating, after warm-ups; time to the last byte, parsed. The client ` +
        `library is the same on both sides: \`node:http\` with a keep-alive agent (what the BFF uses ` +
        `towards the cloud), and for the volumes list also \`fetch\` (what the web app uses). Every ` +
        `figure is the median over ${ctx.runs} runs of that run's median or p99; "each run" lists the ` +
        `runs' overheads. CPU per request: the bench client's own (\`process.cpuUsage\`) on each ` +
        `side, and the BFF process's user + system time (\`/proc\`). ` +
        `Target: the BFF issue's "less than 15% at the median"; no target is written for p99.`,
      tables: [table, cpu, sizes],
      verdicts,
      notes: [
        `What the BFF adds, and what limits it: CPU on the path. In this run a page read through the ` +
          `BFF cost ${range(figures.extraCpu, ms1)} ms more CPU than the same read made directly with ` +
          "`node:http` (the CPU table: the BFF parses the cloud's answers instead of the client, and on " +
          "top runs an HTTP server exchange, the session lookup, Express's middleware, zod's check of " +
          'the answer and `JSON.stringify`), while the hop alone took ' +
          `${range(figures.hopMs, fmtMs)} ms at the median (\`GET /api/health\`) and the session lookup ` +
          `${range(figures.sessionMs, fmtMs)} ms more (\`GET /api/session\`: in memory on SQLite, a ` +
          'query on PostgreSQL, where sessions are shared by BFF processes). On a 2-core machine shared ' +
          'by the bench client, the BFF, the cloud and other work, CPU on the path is latency: against ' +
          `direct reads of ${range(figures.directMs, ms1)} ms that is the ${range(figures.overHttp, pct0)} ` +
          `measured with \`node:http\` on both sides (${range(figures.overFetch, pct0)} against \`fetch\`, ` +
          "the web app's client, whose own cost makes the direct side slower). In a CPU profile of the " +
          'BFF (`BENCH_BFF_PROFILE=<dir>`) its own code (the cloud client, the joins, the response ' +
          'check) is ~10% of its busy time, Express and helmet ~5%, and the largest share is in the ' +
          'socket writes that hand the answer to the next process (`writev`, `writeLatin1String`), where ' +
          "a loaded machine also deschedules it: trimming the BFF's own code would save tenths of a " +
          'millisecond, not the milliseconds that would meet the target. The target is within reach ' +
          'where the read itself is longer (more data, a real cloud behind a network) or the machine has ' +
          'a core to spare: on a quieter machine the volumes list measured ~10% (see the last note).',
        '`GET /api/volumes/{id}` made four rounds of calls one after the other: the volume, then its ' +
          "attachment records, then each holder, then each holder's Nova attachments (at ~35% overhead " +
          'on SQLite and 60–70% on PostgreSQL in the first quick runs). The records need only the ' +
          "volume's id and a holder's Nova attachments only the server's id, so it is now two rounds " +
          '(`volumes.service.ts`, `holdsOfVolume` in `openstack/attachments.ts`), as the direct side does.',
        'This bench found the BFF answering 503 `cloud_unreachable` ("socket hang up") on a page ' +
          "load after its connections to the cloud had been idle for over 5 s: Node's keep-alive agent " +
          "keeps an idle socket after the server's keep-alive timeout has closed it, and its one retry " +
          'took the next idle socket, closed too. The agents now have a timeout, which makes Node drop ' +
          "idle sockets a second before the server's `Keep-Alive: timeout=5` says it will, and the " +
          'retry goes on a new connection (`apps/bff/src/openstack/http.ts`, tested in ' +
          "`apps/bff/test/openstack-http.test.ts`). The bench's own client does the same.",
        'Earlier: the BFF called the cloud with `fetch`, whose web streams cost ~0.7 ms of CPU per call ' +
          'plus garbage; moving to `node:http` with pooled keep-alive agents took its CPU per ' +
          '`GET /api/volumes` from ~10 ms to ~4.5 ms and the overhead from 27% to about 10% on a quieter ' +
          'machine.',
      ],
    },
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
