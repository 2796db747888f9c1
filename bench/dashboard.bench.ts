/**
 * The dashboard as a user meets it: the JavaScript each page loads before it is idle, the time from
 * `npm start` to the dashboard answering, and the topology page at 5,000 servers
 * (bench/topology-page.bench.ts).
 *
 *   npm run bench -- --only dashboard            # in the suite (writes docs/benchmarks.md)
 *   npx tsx bench/dashboard.bench.ts [--quick]    # alone
 *   BENCH_DASHBOARD_PARTS=js,start npx tsx bench/dashboard.bench.ts   # some parts only (js, start, topology)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { chunkSources, gzipSize, loginPageScripts } from '../scripts/web-bundle.mjs';
import { freePort } from '../test/reliability/helpers/processes.js';
import {
  bffSignIn,
  cloudLogin,
  ENGINE_NAME,
  freshDatabase,
  type Seeded,
  seedVolumesAndServers,
  sleep,
  startStack,
} from './lib/bff-stack.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { fmtMs, median, stopwatch } from './lib/stats.js';
import type { BenchContext, BenchSection, BenchTable, BenchVerdict, Engine } from './lib/types.js';
import {
  buildWeb,
  CHROMIUM,
  ensureWebBuild,
  launchChromium,
  repoRoot,
  type WebBuild,
  webDist,
} from './lib/web.js';
import { run as runTopologyPage } from './topology-page.bench.js';

/** The dashboard issue's budget for the sign-in page: kB = 1,000 bytes, gzip at zlib's level 6. */
const SIGN_IN_BUDGET_KB = 200;

const kb = (bytes: number) =>
  Number.isFinite(bytes)
    ? (bytes / 1000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
    : '–';

// --- Initial JavaScript per page ------------------------------------------------------------------

interface PageSpec {
  name: string;
  path: (ids: PageIds) => string;
  signedIn: boolean;
  /** Waits until the page shows what it is for (its data loaded, its lazy parts started). */
  ready: (page: Page) => Promise<void>;
}

interface PageIds {
  seeded: Seeded;
  launchId: string;
}

const visible = (page: Page, selector: string) =>
  page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });

const PAGES: PageSpec[] = [
  { name: 'sign-in', path: () => '/', signedIn: false, ready: (p) => visible(p, '#login-title') },
  {
    name: 'volumes list',
    path: () => '/volumes',
    signedIn: true,
    ready: async (p) => {
      await visible(p, '#volumes-title');
      await p.getByText('bench-0', { exact: true }).first().waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'volume detail (shared, 3 holders)',
    path: (ids) => `/volumes/${ids.seeded.busiestVolume}`,
    signedIn: true,
    ready: (p) => visible(p, '#volume-title'),
  },
  {
    name: 'servers list',
    path: () => '/servers',
    signedIn: true,
    ready: async (p) => {
      await visible(p, '#servers-title');
      await p.getByText('bench-srv-0', { exact: true }).first().waitFor({ timeout: 30_000 });
    },
  },
  {
    name: 'server detail',
    path: (ids) => `/servers/${ids.seeded.servers[0]}`,
    signedIn: true,
    ready: (p) => visible(p, '#server-title'),
  },
  {
    name: 'launch wizard',
    path: () => '/launch',
    signedIn: true,
    ready: (p) => p.getByRole('heading', { name: 'Launch servers' }).waitFor({ timeout: 30_000 }),
  },
  {
    name: 'launch progress',
    path: (ids) => `/launches/${ids.launchId}`,
    signedIn: true,
    ready: (p) => p.getByRole('heading', { name: /^Launch of/ }).waitFor({ timeout: 30_000 }),
  },
  {
    name: 'topology (small cloud)',
    path: () => '/topology',
    signedIn: true,
    ready: (p) => visible(p, '.react-flow__node-server'),
  },
];

const isScript = (url: string) => /\.m?js$/.test(new URL(url).pathname);

/**
 * Every script request the page makes from navigation until it shows its content and no script has
 * been requested or pending for a second: the page's own chunks, lazy ones and worker scripts alike.
 */
async function scriptsOfPage(context: BrowserContext, url: string, ready: (page: Page) => Promise<void>) {
  const requests = new Map<string, Request>();
  const pending = new Set<Request>();
  let lastEvent = performance.now();
  context.on('request', (r) => {
    if (!isScript(r.url())) return;
    requests.set(r.url(), r);
    pending.add(r);
    lastEvent = performance.now();
  });
  const settle = (r: Request) => {
    if (pending.delete(r)) lastEvent = performance.now();
  };
  context.on('requestfinished', settle);
  context.on('requestfailed', settle);
  const page = await context.newPage();
  await page.goto(url);
  await ready(page);
  const deadline = performance.now() + 20_000;
  while (pending.size > 0 || performance.now() - lastEvent < 1_000) {
    if (performance.now() > deadline) throw new Error(`${url}: scripts still loading after 20 s`);
    await sleep(100);
  }
  return [...requests.values()].map((r) => ({
    path: new URL(r.url()).pathname.replace(/^\//, ''),
    acceptEncoding: r.headers()['accept-encoding'] ?? 'gzip, deflate, br, zstd',
  }));
}

/**
 * The bytes the BFF sends for `path` to a client that accepts `acceptEncoding`, still encoded (the
 * browser's own count misses worker scripts), and the encoding it chose.
 */
function sentBytes(
  base: string,
  path: string,
  acceptEncoding: string,
): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const r = request(`${base}/${path}`, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () =>
        res.statusCode === 200
          ? resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') })
          : reject(new Error(`${path}: ${res.statusCode}`)),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end();
  });
}

interface PageScripts {
  spec: PageSpec;
  path: string;
  scripts: { path: string; raw: number; gzip: number; wire: number; encoding: string }[];
}

async function measureInitialJs(ctx: BenchContext): Promise<PageScripts[]> {
  ctx.log('dashboard: starting the cloud and the BFF (serving apps/web/dist) for the page loads');
  const stack = await startStack(ctx, 'sqlite', { prefix: 'dashboard-js', webDist });
  try {
    const cloud = await cloudLogin(stack.cloud.url);
    const seeded = await seedVolumesAndServers(cloud, { volumes: 6, servers: 3 });
    // A launch through the BFF, for the launch progress page.
    const session = await bffSignIn(stack.bff.url);
    const headers = { Cookie: session.cookie, 'Content-Type': 'application/json' };
    const images = (await (await fetch(`${stack.bff.url}/api/images`, { headers })).json()) as {
      images: { id: string }[];
    };
    const launchRes = await fetch(`${stack.bff.url}/api/launches`, {
      method: 'POST',
      headers: { ...headers, 'X-CSRF-Token': session.csrfToken },
      body: JSON.stringify({
        name: 'bench-launch',
        count: 2,
        flavorId: '1',
        boot: { source: 'image', imageId: images.images[0]?.id },
        dataVolumes: [{ volumeId: seeded.busiestVolume, mode: 'ro' }],
      }),
    });
    if (launchRes.status !== 202) throw new Error(`launch: ${launchRes.status} ${await launchRes.text()}`);
    const launchId = ((await launchRes.json()) as { id: string }).id;
    const ids: PageIds = { seeded, launchId };

    const browser = await launchChromium();
    const out: PageScripts[] = [];
    try {
      for (const spec of PAGES) {
        // A fresh context per page: an empty cache, as on a first visit straight to that address.
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        try {
          if (spec.signedIn) {
            const res = await context.request.post(`${stack.bff.url}/api/session`, {
              data: { username: 'demo', password: 'demo' },
            });
            if (res.status() !== 201) throw new Error(`sign-in: ${res.status()}`);
          }
          const path = spec.path(ids);
          const loaded = await scriptsOfPage(context, stack.bff.url + path, spec.ready);
          const scripts = loaded.map((s) => {
            const file = join(webDist, s.path);
            if (!existsSync(file)) throw new Error(`${path} loaded ${s.path}, which is not in apps/web/dist`);
            const body = readFileSync(file);
            return { path: s.path, raw: body.length, gzip: gzipSize(body), acceptEncoding: s.acceptEncoding };
          });
          ctx.log(`dashboard: ${spec.name} (${path}): ${scripts.map((s) => s.path).join(', ')}`);
          const sent = await Promise.all(
            scripts.map((s) => sentBytes(stack.bff.url, s.path, s.acceptEncoding)),
          );
          out.push({
            spec,
            path,
            scripts: scripts.map((s, i) => ({ ...s, wire: sent[i]!.bytes, encoding: sent[i]!.encoding })),
          });
        } finally {
          await context.close();
        }
      }
    } finally {
      await browser.close();
    }
    return out;
  } finally {
    await stack.stop();
  }
}

function initialJsSection(pages: PageScripts[], build: WebBuild): BenchSection {
  const entry = new Set(loginPageScripts(webDist));
  const sources = chunkSources(webDist);
  const sum = (p: PageScripts, key: 'raw' | 'gzip' | 'wire') => p.scripts.reduce((n, s) => n + s[key], 0);
  // Workers are not in the manifest; their file names say what they are.
  const label = (path: string) =>
    sources.get(path)?.replace(/^.*\//, '') ?? path.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '.js');
  const perPage: BenchTable = {
    title: 'Initial JavaScript per page (first visit, empty cache)',
    columns: [
      'page',
      'address',
      'scripts',
      'raw kB',
      'gzip kB',
      'sent by the BFF kB',
      'beyond the entry chunk',
    ],
    rows: pages.map((p) => {
      const extra = p.scripts.filter((s) => !entry.has(s.path));
      return [
        p.spec.name,
        `\`${p.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')}\``,
        String(p.scripts.length),
        kb(sum(p, 'raw')),
        `**${kb(sum(p, 'gzip'))}**`,
        kb(sum(p, 'wire')),
        extra.length ? extra.map((s) => `${label(s.path)} (${kb(s.gzip)} gzip)`).join(', ') : 'none',
      ];
    }),
  };
  const files = new Map<
    string,
    { raw: number; gzip: number; wire: number; encoding: string; pages: string[] }
  >();
  for (const p of pages) {
    for (const s of p.scripts) {
      const f = files.get(s.path) ?? {
        raw: s.raw,
        gzip: s.gzip,
        wire: s.wire,
        encoding: s.encoding,
        pages: [],
      };
      f.pages.push(p.spec.name);
      files.set(s.path, f);
    }
  }
  const perFile: BenchTable = {
    title: 'The scripts',
    columns: ['file', 'built from', 'raw kB', 'gzip kB', 'sent by the BFF kB', 'loaded by'],
    rows: [...files.entries()].map(([path, f]) => [
      `\`${path}\``,
      entry.has(path) ? 'the entry (`index.html`)' : `\`${sources.get(path) ?? label(path)}\``,
      kb(f.raw),
      kb(f.gzip),
      `${kb(f.wire)} (${f.encoding})`,
      f.pages.length === pages.length ? 'every page' : f.pages.join(', '),
    ]),
  };
  const signIn = pages.find((p) => p.spec.name === 'sign-in');
  const signInGzip = signIn ? sum(signIn, 'gzip') : Number.NaN;
  const verdicts: BenchVerdict[] = [
    {
      target: `sign-in page: initial JavaScript ≤ ${SIGN_IN_BUDGET_KB} kB gzipped`,
      measured: `${kb(signInGzip)} kB gzipped (${kb(signIn ? sum(signIn, 'raw') : Number.NaN)} kB raw)`,
      met: signInGzip / 1000 <= SIGN_IN_BUDGET_KB,
    },
  ];
  const loadedBySignIn = new Set(signIn?.scripts.map((s) => s.path));
  const sameAsManifest = loadedBySignIn.size === entry.size && [...entry].every((f) => loadedBySignIn.has(f));
  const notes = [
    sameAsManifest
      ? `Chromium loaded exactly the sign-in scripts that Vite's manifest names (the entry chunk and its ` +
        `static imports), which \`node scripts/bundle-size.mjs\` checks against the same budget in ` +
        `\`npm test\`.`
      : `Chromium's sign-in scripts (${[...loadedBySignIn].join(', ')}) differ from the manifest's ` +
        `(${[...entry].join(', ')}), which \`scripts/bundle-size.mjs\` checks in \`npm test\`: one of the two is wrong.`,
    'Everything but the topology page is in the entry chunk (volumes, servers, the attach dialog, the ' +
      'launch wizard, zod, react-hook-form, TanStack Query), so a signed-in page costs the same ' +
      'JavaScript as the sign-in page. The topology page lazily loads its chunk (React Flow and the ' +
      'folding and layout of the graph, which run in the page: what is drawn is folded to what fits ' +
      'legibly, so there is no layout worker and no elk to fetch).',
  ];
  return {
    title: 'Dashboard: initial JavaScript per page',
    command: 'npm run bench -- --only dashboard',
    method:
      `\`apps/web/dist\` as built from the current sources (${build.builtMs !== undefined ? `built by this run in ${fmtMs(build.builtMs)} ms: ${build.reason}` : build.reason}), ` +
      `served by the BFF against the bundled cloud (SQLite; the scripts do not depend on the engine), ` +
      `with 6 volumes, 3 servers and a launch of 2 servers seeded as \`demo\`. Debian's Chromium ` +
      `(\`${CHROMIUM}\`, headless) opens each page in a fresh browser context (empty cache), signed ` +
      `in as \`demo\` except for the sign-in page, and records every script request (chunks and worker ` +
      `scripts alike) until the page shows its content and no script has been requested or pending ` +
      `for a second. Sizes are of those files: raw, gzipped at zlib's default level 6 (kB = 1,000 ` +
      `bytes, as Vite prints them), and the bytes the BFF sends for each to a client with Chromium's ` +
      `\`Accept-Encoding\` (it compresses static files; the encoding it chose is in the second table). The sizes do not vary between loads, so each page is loaded once. Budget: the ` +
      `dashboard issue's ${SIGN_IN_BUDGET_KB} kB gzipped for the sign-in page; no budget is written ` +
      `for the other pages.`,
    tables: [perPage, perFile],
    verdicts,
    notes,
  };
}

// --- From `npm start` to the dashboard answering ---------------------------------------------------

/** Every process descended from `pid` (Linux /proc), so none outlives the measurement. */
function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** Running (not gone, not a zombie waiting for its parent). */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/** SIGTERM to `npm start`'s process group (start.mjs passes it on to the cloud and the BFF), then SIGKILL what is left. */
async function stopStart(child: ChildProcess): Promise<void> {
  const pid = child.pid!;
  const family = [pid, ...descendants(pid)];
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // already gone
  }
  const deadline = Date.now() + 10_000;
  while (family.some(alive) && Date.now() < deadline) await sleep(100);
  for (const p of family.filter(alive)) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

interface StartTiming {
  /** Keystone answering. */
  cloudMs: number;
  /** GET / answers the app's HTML and /api/health answers. */
  dashboardMs: number;
}

/** The entry script index.html references: proof that GET / answered the app and not a placeholder. */
const entryScript = () =>
  /src="(\/assets\/[^"]+\.js)"/.exec(readFileSync(join(webDist, 'index.html'), 'utf8'))?.[1] ?? '';

async function timeStart(databaseUrl: string): Promise<StartTiming> {
  const cloudPort = await freePort();
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CLOUD_PORT: String(cloudPort),
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    npm_config_update_notifier: 'false',
  };
  // As a user's shell would have it: the defaults for everything else.
  for (const k of ['OS_AUTH_URL', 'WEB_DIST', 'HOST', 'CLOUD_HOST', 'LOG_LEVEL', 'CLOUD_BACKEND_DELAY_MS'])
    delete env[k];
  const script = entryScript();
  const t = stopwatch();
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start'], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (b: Buffer) => {
    output = (output + b.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const ok = async (url: string, check?: (body: string) => boolean) => {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const body = await res.text();
      return res.status === 200 && (!check || check(body));
    } catch {
      return false;
    }
  };
  try {
    let cloudMs = Number.NaN;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
      if (t() > 120_000) throw new Error(`the dashboard did not answer within 120 s:\n${output}`);
      if (Number.isNaN(cloudMs) && (await ok(`http://127.0.0.1:${cloudPort}/identity/v3`))) cloudMs = t();
      if (
        (await ok(`http://127.0.0.1:${port}/`, (html) => html.includes(script))) &&
        (await ok(`http://127.0.0.1:${port}/api/health`))
      ) {
        return { cloudMs, dashboardMs: t() };
      }
      await sleep(50);
    }
  } finally {
    await stopStart(child);
  }
}

interface StartResult {
  engine: Engine;
  first: StartTiming[];
  restart: StartTiming[];
}

/** The pieces a start is made of, each timed alone: what loading the code costs before any app runs. */
const START_PARTS = [
  { what: 'an npm command (`npm --version`); the chain runs one', cmd: 'npm', args: ['--version'] },
  {
    what: 'Node with tsx (`node --import tsx -e 0`)',
    cmd: process.execPath,
    args: ['--import', 'tsx', '-e', '0'],
  },
  {
    what: "… and importing the cloud's code (`apps/cloud/src/boot.ts`)",
    cmd: process.execPath,
    args: ['--import', 'tsx', '-e', "await import('./apps/cloud/src/boot.ts')"],
  },
  {
    what: "… and importing the BFF's code (`apps/bff/src/app.ts`)",
    cmd: process.execPath,
    args: ['--import', 'tsx', '-e', "await import('./apps/bff/src/app.ts')"],
  },
] as const;

function timeParts(): number[] {
  return START_PARTS.map((p) => {
    const t = stopwatch();
    const r = spawnSync(p.cmd, [...p.args], { cwd: repoRoot, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${p.cmd} ${p.args.join(' ')} exited with ${r.status}`);
    return t();
  });
}

interface StartMeasurement {
  engines: StartResult[];
  buildMs: number[];
  /** Per START_PARTS entry, one time per run. */
  partsMs: number[][];
}

async function measureStart(ctx: BenchContext): Promise<StartMeasurement> {
  const partsMs: number[][] = START_PARTS.map(() => []);
  for (let run = 0; run < ctx.runs; run++) {
    for (const [i, ms] of timeParts().entries()) partsMs[i]!.push(ms);
  }
  const engines: StartResult[] = [];
  for (const engine of ctx.engines) {
    const r: StartResult = { engine, first: [], restart: [] };
    for (let run = 0; run < ctx.runs; run++) {
      const db = await freshDatabase(ctx, engine, 'start');
      try {
        r.first.push(await timeStart(db.url));
        r.restart.push(await timeStart(db.url));
      } finally {
        await db.drop();
      }
      ctx.log(
        `dashboard: npm start on ${engine}, run ${run + 1}/${ctx.runs}: ${fmtMs(r.first.at(-1)!.dashboardMs)} ms on an empty database, ${fmtMs(r.restart.at(-1)!.dashboardMs)} ms on the same database again`,
      );
    }
    engines.push(r);
  }
  // The cold start's extra step: the web build `npm start` runs when apps/web/dist is missing, into a
  // temp dir so apps/web/dist (which others may be serving) stays as it is.
  const buildMs: number[] = [];
  for (let i = 0; i < (ctx.quick ? 1 : Math.min(ctx.runs, 3)); i++) {
    const out = mkdtempSync(join(tmpdir(), 'web-build-'));
    try {
      buildMs.push(await buildWeb(['--outDir', out, '--emptyOutDir']));
      ctx.log(`dashboard: web build ${i + 1}: ${fmtMs(buildMs.at(-1)!)} ms`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return { engines, buildMs, partsMs };
}

function startSection(ctx: BenchContext, m: StartMeasurement): BenchSection {
  const rows: string[][] = [];
  const each = (xs: number[]) => xs.map(fmtMs).join(', ');
  for (const e of m.engines) {
    const name = ENGINE_NAME[e.engine];
    rows.push(
      [
        name,
        'the cloud answering (Keystone), empty database',
        fmtMs(median(e.first.map((x) => x.cloudMs))),
        each(e.first.map((x) => x.cloudMs)),
      ],
      [
        name,
        '**the dashboard answering**, empty database',
        `**${fmtMs(median(e.first.map((x) => x.dashboardMs)))}**`,
        each(e.first.map((x) => x.dashboardMs)),
      ],
      [
        name,
        'the dashboard answering, restart on that database',
        fmtMs(median(e.restart.map((x) => x.dashboardMs))),
        each(e.restart.map((x) => x.dashboardMs)),
      ],
    );
  }
  const build = median(m.buildMs);
  rows.push(['–', 'web build (`npm run build --workspace apps/web`)', fmtMs(build), each(m.buildMs)]);
  for (const e of m.engines) {
    rows.push([
      ENGINE_NAME[e.engine],
      'cold start: web build + the dashboard answering on an empty database',
      fmtMs(build + median(e.first.map((x) => x.dashboardMs))),
      'sum of the medians',
    ]);
  }
  return {
    title: 'Dashboard: from `npm start` to the dashboard answering',
    command: 'npm run bench -- --only dashboard',
    method:
      `Runs \`npm start\` (npm, then \`scripts/start.mjs\`, which starts the bundled cloud and, once ` +
      `Keystone answers, the BFF, each as \`node --import tsx\`) from the ` +
      `repository root with fresh \`CLOUD_PORT\` and \`PORT\` and every other setting at its default ` +
      `(info logs, backend delay), as a user would. \`DATABASE_URL\` is a new SQLite file, or a new ` +
      `PostgreSQL database (which the BFF then uses for its sessions too). Polls every 50 ms until ` +
      `\`GET /\` on the BFF answers 200 with the app's \`index.html\` (its entry script's name) and ` +
      `\`GET /api/health\` answers 200, timed from the spawn; then stops it with SIGTERM to its process ` +
      `group and waits until every process it started is gone. Each run starts once on an empty ` +
      `database (migrations and seed data) and once more on the same database. \`apps/web/dist\` is ` +
      `already built, so these are warm starts; a cold start (a fresh checkout) first builds the web ` +
      `app, timed separately into a temp dir. Medians of ${ctx.runs} runs; no target is written for ` +
      `this figure.`,
    tables: [
      {
        title: 'Time from spawning `npm start`',
        columns: ['engine', 'until', 'median ms', 'each run ms'],
        rows,
      },
      {
        title: 'Where it goes: the pieces of a start, each timed alone',
        columns: ['process', 'median ms', 'each run ms'],
        rows: START_PARTS.map((p, i) => [p.what, fmtMs(median(m.partsMs[i]!)), each(m.partsMs[i]!)]),
      },
    ],
    verdicts: [],
    notes: [
      "What limits it: loading code, not the apps' own start. `npm start` is a chain of processes " +
        '(npm, `scripts/start.mjs`, then for each app Node with the tsx loader), each app runs from its ' +
        'TypeScript through tsx, which transpiles (cached after the first run) and loads every module, ' +
        "and the BFF starts only once the cloud answers, so the two apps' loads add up: the second " +
        'table times those pieces alone. Migrations and seed data on an empty database are a small ' +
        'part: a restart on the same database takes about as long.',
    ],
  };
}

// --- The module -------------------------------------------------------------------------------------

export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  const parts = new Set((process.env.BENCH_DASHBOARD_PARTS ?? 'js,start,topology').split(','));
  const build = await ensureWebBuild(ctx);
  const sections: BenchSection[] = [];
  if (parts.has('js')) sections.push(initialJsSection(await measureInitialJs(ctx), build));
  if (parts.has('start')) sections.push(startSection(ctx, await measureStart(ctx)));
  if (parts.has('topology')) sections.push(...(await runTopologyPage(ctx)));
  return sections;
}

if (isMain(import.meta.url)) await runStandalone(run);
