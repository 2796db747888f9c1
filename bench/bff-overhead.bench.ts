/**
 * What the BFF adds to a read: GET /api/volumes through the BFF against the same answer
 * fetched straight from the cloud by a client doing what the BFF does (volumes, Cinder's
 * attachment records and the servers, in parallel, then joined: each volume with its holders,
 * their modes, states and server names).
 *
 *   npx tsx bench/bff-overhead.bench.ts            # or: npm run bench:bff
 *   BENCH_VOLUMES=200 BENCH_RUNS=400 npx tsx bench/bff-overhead.bench.ts
 *
 * The cloud and the BFF run as their own processes (as in production), on SQLite in a temp dir,
 * logging warnings only. Requests are sequential and alternate between the two sides, so drift
 * in the machine's load hits both alike. Times are to the last byte, parsed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VOLUMES = Number(process.env.BENCH_VOLUMES ?? 50);
const SERVERS = Number(process.env.BENCH_SERVERS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUPS = Number(process.env.BENCH_WARMUPS ?? 30);
const TARGET = 0.15;

const freePort = () =>
  new Promise<number>((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

const children: ChildProcess[] = [];
function startApp(name: string, entry: string, env: Record<string, string>): ChildProcess {
  // BENCH_PROFILE=<dir>: a V8 CPU profile of the BFF, written when it stops.
  const profile = name === 'bff' && process.env.BENCH_PROFILE;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', entry], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code) => {
    if (code !== null && code !== 0) console.error(`${name} exited with ${code}`);
  });
  children.push(child);
  return child;
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up`);
}

async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${res.url}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Cloud {
  token: string;
  projectId: string;
  compute: string;
  volume: string;
  image: string;
}

async function keystone(cloudUrl: string): Promise<Cloud> {
  const res = await fetch(`${cloudUrl}/identity/v3/auth/tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: 'demo', domain: { name: 'Default' }, password: 'demo' } },
        },
        scope: { project: { name: 'demo', domain: { name: 'Default' } } },
      },
    }),
  });
  const body = await json<{
    token: {
      project: { id: string };
      catalog: { type: string; endpoints: { interface: string; url: string }[] }[];
    };
  }>(res);
  const endpoint = (type: string) =>
    body.token.catalog.find((s) => s.type === type)?.endpoints.find((e) => e.interface === 'public')?.url ??
    '';
  return {
    token: res.headers.get('x-subject-token') ?? '',
    projectId: body.token.project.id,
    compute: endpoint('compute'),
    volume: endpoint('block-storage') || endpoint('volumev3'),
    image: endpoint('image'),
  };
}

/** The client library a side uses: fetch (as a browser would), or node:http with keep-alive. */
type Transport = 'fetch' | 'http';
const keepAlive = new Agent({ keepAlive: true, maxSockets: 16 });

function getText(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const r = request(url, { agent: keepAlive, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end();
  });
}

async function get<T>(transport: Transport, url: string, headers: Record<string, string>): Promise<T> {
  if (transport === 'fetch') return json<T>(await fetch(url, { headers }));
  const res = await getText(url, headers);
  if (res.status >= 400) throw new Error(`${url}: ${res.status} ${res.text}`);
  return JSON.parse(res.text) as T;
}

const osHeaders = (c: Cloud, version: string): Record<string, string> => ({
  'X-Auth-Token': c.token,
  Accept: 'application/json',
  'OpenStack-API-Version': version,
  ...(version.startsWith('compute ') ? { 'X-OpenStack-Nova-API-Version': version.slice(8) } : {}),
});

function client(c: Cloud) {
  return async <T>(url: string, version: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        ...osHeaders(c, version),
        ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    return json<T>(res);
  };
}

/** 50 volumes, 10 servers; a third of the volumes shared and held by 2-4 servers, some read-only. */
async function seed(c: Cloud): Promise<number> {
  const call = client(c);
  const images = await call<{ images: { id: string }[] }>(`${c.image}/v2/images`, 'image 2');
  const image = images.images[0]!.id;
  const volumes: string[] = [];
  for (let i = 0; i < VOLUMES; i++) {
    const shared = i % 3 === 0;
    const v = await call<{ volume: { id: string } }>(`${c.volume}/volumes`, 'volume 3.50', {
      method: 'POST',
      body: { volume: { name: `bench-${i}`, size: 1, ...(shared ? { volume_type: 'multiattach' } : {}) } },
    });
    volumes.push(v.volume.id);
  }
  const servers: string[] = [];
  for (let i = 0; i < SERVERS; i++) {
    const s = await call<{ server: { id: string } }>(`${c.compute}/servers`, 'compute 2.105', {
      method: 'POST',
      body: { server: { name: `bench-srv-${i}`, flavorRef: '1', imageRef: image, networks: 'none' } },
    });
    servers.push(s.server.id);
  }
  await waitUntil(async () => {
    const list = await call<{ servers: { status: string }[] }>(
      `${c.compute}/servers/detail`,
      'compute 2.105',
    );
    return list.servers.filter((s) => s.status === 'ACTIVE').length === SERVERS;
  });
  let attachments = 0;
  for (const [i, v] of volumes.entries()) {
    const holders = i % 3 === 0 ? 2 + (i % 3) + (i % 2) : i % 2 === 0 ? 1 : 0;
    for (let k = 0; k < holders; k++) {
      const server = servers[(i + k) % servers.length]!;
      await call(`${c.compute}/servers/${server}/os-volume_attachments`, 'compute 2.105', {
        method: 'POST',
        body: { volumeAttachment: { volumeId: v, attach_mode: k % 2 === 1 ? 'ro' : 'rw' } },
      });
      attachments++;
      await waitUntil(async () => {
        const vol = await call<{ volume: { attachments: { server_id: string }[] } }>(
          `${c.volume}/volumes/${v}`,
          'volume 3.50',
        );
        return vol.volume.attachments.some((a) => a.server_id === server);
      });
    }
  }
  return attachments;
}

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out seeding');
}

interface RawVolume {
  id: string;
  name: string | null;
  attachments: { server_id: string; attachment_id: string; device: string | null }[];
}
interface RawAttachment {
  id: string;
  volume_id: string;
  instance: string | null;
  status: string;
  attach_mode: string;
}
interface RawServer {
  id: string;
  name: string;
}

/**
 * The direct side: the same three calls the BFF makes, at the same microversions, in parallel,
 * then each volume with its holders (mode and state from Cinder, name from Nova), as a client
 * composing the dashboard's view would.
 */
async function direct(c: Cloud, t: Transport) {
  const [volumes, attachments, servers] = await Promise.all([
    get<{ volumes: RawVolume[] }>(t, `${c.volume}/volumes/detail?limit=1000`, osHeaders(c, 'volume 3.50')),
    get<{ attachments: RawAttachment[] }>(
      t,
      `${c.volume}/attachments/detail?limit=1000`,
      osHeaders(c, 'volume 3.54'),
    ),
    get<{ servers: RawServer[] }>(t, `${c.compute}/servers/detail?limit=1000`, osHeaders(c, 'compute 2.105')),
  ]);
  const names = new Map(servers.servers.map((s) => [s.id, s.name]));
  const byVolume = new Map<string, RawAttachment[]>();
  for (const a of attachments.attachments) {
    if (!a.instance || a.status === 'detached') continue;
    byVolume.set(a.volume_id, [...(byVolume.get(a.volume_id) ?? []), a]);
  }
  return volumes.volumes.map((v) => ({
    id: v.id,
    name: v.name,
    attachments: (byVolume.get(v.id) ?? []).map((a) => ({
      serverId: a.instance,
      serverName: names.get(a.instance!) ?? null,
      mode: a.attach_mode === 'ro' ? 'ro' : 'rw',
      state: a.status,
      device: v.attachments.find((x) => x.attachment_id === a.id)?.device ?? null,
    })),
  }));
}

async function viaBff(bffUrl: string, cookie: string, t: Transport) {
  const headers = { Cookie: cookie, Accept: 'application/json' };
  return (await get<{ volumes: { attachments: unknown[] }[] }>(t, `${bffUrl}/api/volumes`, headers)).volumes;
}

/** A process's CPU time so far (Linux /proc; 0 elsewhere). */
function cpuMs(pid: number | undefined): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
  } catch {
    return { user: 0, system: 0 };
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const ms = (n: number) => n.toFixed(2);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bff-bench-'));
  try {
    const cloudPort = await freePort();
    const bffPort = await freePort();
    const cloudUrl = `http://127.0.0.1:${cloudPort}`;
    const bffUrl = `http://127.0.0.1:${bffPort}`;
    startApp('cloud', 'apps/cloud/src/main.ts', {
      CLOUD_PORT: String(cloudPort),
      DATABASE_URL: `file:${join(dir, 'cloud.db')}`,
      CLOUD_BACKEND_DELAY_MS: '0',
    });
    await waitFor(`${cloudUrl}/identity/v3`);
    const bffProcess = startApp('bff', 'apps/bff/src/main.ts', {
      PORT: String(bffPort),
      OS_AUTH_URL: `${cloudUrl}/identity/v3`,
      DATABASE_URL: '',
    });
    await waitFor(`${bffUrl}/api/health`);

    const cloud = await keystone(cloudUrl);
    const attachments = await seed(cloud);
    const login = await fetch(`${bffUrl}/api/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: 'demo' }),
    });
    if (login.status !== 201) throw new Error(`BFF login: ${login.status} ${await login.text()}`);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;

    // Both sides must compose the same answer.
    const a = await direct(cloud, 'fetch');
    const b = await viaBff(bffUrl, cookie, 'http');
    const count = (vs: { attachments: unknown[] }[]) => vs.reduce((n, v) => n + v.attachments.length, 0);
    if (a.length !== b.length || count(a) !== count(b)) {
      throw new Error(`different answers: direct ${a.length}/${count(a)}, BFF ${b.length}/${count(b)}`);
    }

    const bffBytes = (await (await fetch(`${bffUrl}/api/volumes`, { headers: { Cookie: cookie } })).text())
      .length;
    const load = loadavg()[0]!.toFixed(2);
    console.log(
      `${VOLUMES} volumes, ${SERVERS} servers, ${attachments} attachments (BFF answer ${bffBytes} bytes); ${WARMUPS} warm-ups, ${RUNS} runs each; load ${load}`,
    );
    const sides = [
      { name: 'straight to the cloud (3 calls + join), fetch', t: 'fetch', bff: false },
      { name: 'through the BFF (GET /api/volumes), fetch', t: 'fetch', bff: true },
      { name: 'straight to the cloud (3 calls + join), node:http', t: 'http', bff: false },
      { name: 'through the BFF (GET /api/volumes), node:http', t: 'http', bff: true },
    ] as const;
    const times: number[][] = sides.map(() => []);
    let bffCpu0 = { user: 0, system: 0 };
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      if (i === WARMUPS) bffCpu0 = cpuMs(bffProcess.pid);
      // Rotate which side goes first, so none always follows another.
      for (let k = 0; k < sides.length; k++) {
        const j = (i + k) % sides.length;
        const side = sides[j]!;
        const t0 = performance.now();
        if (side.bff) await viaBff(bffUrl, cookie, side.t);
        else await direct(cloud, side.t);
        if (i >= WARMUPS) times[j]!.push(performance.now() - t0);
      }
    }
    const bffCpu1 = cpuMs(bffProcess.pid);
    const perRequest = (key: 'user' | 'system') => (bffCpu1[key] - bffCpu0[key]) / (2 * RUNS);
    const stats = (xs: number[]) => {
      const s = [...xs].sort((x, y) => x - y);
      return {
        median: quantile(s, 0.5),
        p90: quantile(s, 0.9),
        mean: xs.reduce((n, x) => n + x, 0) / xs.length,
      };
    };
    const st = times.map(stats);
    console.log('| path (client library) | median ms | p90 ms | mean ms |');
    console.log('| --- | ---: | ---: | ---: |');
    sides.forEach((side, j) => {
      const x = st[j]!;
      console.log(`| ${side.name} | ${ms(x.median)} | ${ms(x.p90)} | ${ms(x.mean)} |`);
    });
    console.log(
      `BFF process CPU per request: ${ms(perRequest('user'))} ms user + ${ms(perRequest('system'))} ms system`,
    );
    for (const [d, f, label] of [
      [0, 1, 'fetch'],
      [2, 3, 'node:http'],
    ] as const) {
      const overhead = st[f]!.median / st[d]!.median - 1;
      console.log(
        `BFF overhead at the median, ${label} on both sides: ${(overhead * 100).toFixed(1)}% (target < ${TARGET * 100}%): ${overhead < TARGET ? 'met' : 'MISSED'}`,
      );
    }
    console.log(
      `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; load at end ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
