/**
 * The /topology page at 5,000 servers / 20,000 attachments in Chromium: time from navigation to the
 * first painted frame of the graph, how long the main thread was blocked, and the worst case (zooming
 * out to the whole graph). Part of the dashboard module of `npm run bench`.
 *
 *   npm run bench -- --only dashboard                 # in the suite
 *   npx tsx bench/topology-page.bench.ts [--quick]     # alone (builds apps/web when stale)
 *   BENCH_TOPOLOGY_SERVERS=500,5000 BENCH_RUNS=3 npx tsx bench/topology-page.bench.ts
 *
 * Serves apps/web/dist from a small static server and answers /api/session and /api/topology with
 * Playwright route mocks (a generated whole-cloud topology), so nothing but the page is measured.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { sessionFixture } from '../apps/web/src/features/topology/testing/fixtures.js';
import { generateTopology } from '../apps/web/src/features/topology/testing/generate-topology.js';
import { isMain, runStandalone } from './lib/standalone.js';
import { fmtInt, fmtMs, median } from './lib/stats.js';
import type { BenchContext, BenchSection, BenchTable } from './lib/types.js';
import { CHROMIUM, ensureWebBuild, launchChromium, webDist } from './lib/web.js';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

function serveDist() {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    let file = join(webDist, path);
    if (!file.startsWith(webDist) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      file = join(webDist, 'index.html');
    }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise<typeof server>((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

// Runs in the page before the app: the first frame that holds server nodes, and long tasks.
const probe = () => {
  const w = window as unknown as { __bench: { longTasks: number[]; nodesAt?: number; paintAt?: number } };
  w.__bench = { longTasks: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long-task timing in this browser: blocking time reads 0.
  }
  const mo = new MutationObserver(() => {
    if (w.__bench.nodesAt === undefined && document.querySelector('.react-flow__node-server')) {
      w.__bench.nodesAt = performance.now();
      mo.disconnect();
      // The second animation frame after the commit starts once the first one has been painted.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          w.__bench.paintAt = performance.now();
        }),
      );
    }
  });
  // documentElement may not exist yet when this runs; the document itself always does.
  mo.observe(document, { childList: true, subtree: true });
};

interface PageRun {
  paint: number;
  tbt: number;
  longest: number;
  layout: string;
  fitAll: number;
  nodes: number;
  edges: number;
}

interface SizeResult {
  servers: number;
  attachments: number;
  volumes: number;
  hosts: number;
  jsonBytes: number;
  runs: PageRun[];
}

async function measureSize(ctx: BenchContext, servers: number, base: string): Promise<SizeResult> {
  const topology = generateTopology({ servers });
  const body = JSON.stringify(topology);
  const session = JSON.stringify(sessionFixture(true));
  const browser = await launchChromium();
  const runs: PageRun[] = [];
  try {
    for (let run = 0; run < ctx.runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      try {
        const page = await context.newPage();
        await page.addInitScript(probe);
        if (process.env.BENCH_DEBUG) {
          page.on('console', (msg) => ctx.log(`page: ${msg.type()} ${msg.text()}`));
          page.on('pageerror', (err) => ctx.log(`page error: ${err.message}`));
        }
        await page.route('**/api/**', (route) => {
          const url = new URL(route.request().url());
          if (url.pathname === '/api/session') {
            return route.fulfill({ contentType: 'application/json', body: session });
          }
          if (url.pathname === '/api/topology')
            return route.fulfill({ contentType: 'application/json', body });
          return route.fulfill({ status: 204 });
        });
        await page.goto(`${base}/topology`);
        await page.waitForFunction(
          () => (window as unknown as { __bench: { paintAt?: number } }).__bench.paintAt,
          null,
          { timeout: Number(process.env.BENCH_TOPOLOGY_TIMEOUT_MS ?? 120_000), polling: 100 },
        );
        const layout = (await page.getByText(/^Laid out with/).textContent()) ?? '';
        const m = await page.evaluate(() => {
          const b = (window as unknown as { __bench: { longTasks: number[]; paintAt: number } }).__bench;
          return {
            paint: b.paintAt,
            longTasks: b.longTasks,
            nodes: document.querySelectorAll('.react-flow__node').length,
            edges: document.querySelectorAll('.react-flow__edge').length,
          };
        });
        // Worst case: fit the whole graph on screen, so every node and edge is visible at once.
        // Clicked from inside the page: Playwright's role lookup over a big DOM would be timed too.
        const fitAll = await page.evaluate(
          () =>
            new Promise<number>((ok) => {
              const start = performance.now();
              document.querySelector<HTMLButtonElement>('button[aria-label="Fit the whole graph"]')?.click();
              // No named helpers in here: tsx would wrap them in a __name() the page does not have.
              setTimeout(
                () => requestAnimationFrame(() => requestAnimationFrame(() => ok(performance.now() - start))),
                0,
              );
            }),
        );
        const r: PageRun = {
          paint: m.paint,
          tbt: m.longTasks.reduce((s, d) => s + Math.max(0, d - 50), 0),
          longest: Math.max(0, ...m.longTasks),
          layout,
          fitAll,
          nodes: m.nodes,
          edges: m.edges,
        };
        runs.push(r);
        ctx.log(
          `topology page ${servers}: run ${run + 1}/${ctx.runs}: first graph frame ${fmtMs(r.paint)} ms, ` +
            `blocking ${fmtMs(r.tbt)} ms (longest task ${fmtMs(r.longest)} ms), fit-all ${fmtMs(r.fitAll)} ms; ${layout}`,
        );
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return {
    servers: topology.servers.length,
    attachments: topology.edges.length,
    volumes: topology.volumes.length,
    hosts: topology.hosts.length,
    jsonBytes: body.length,
    runs,
  };
}

/** The layout line of the median run, without the page's sentence around it. */
const layoutOf = (runs: PageRun[]) => {
  const sorted = [...runs].sort((a, b) => a.paint - b.paint);
  const mid = sorted[Math.ceil(sorted.length / 2) - 1];
  return (mid?.layout ?? '').replace(/^Laid out with /, '').replace(/\.$/, '');
};

export async function run(ctx: BenchContext): Promise<BenchSection[]> {
  const sizes = (process.env.BENCH_TOPOLOGY_SERVERS ?? (ctx.quick ? '5000' : '500,2000,5000'))
    .split(',')
    .map(Number);
  await ensureWebBuild(ctx);
  const server = await serveDist();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const results: SizeResult[] = [];
  try {
    for (const servers of sizes) results.push(await measureSize(ctx, servers, base));
  } finally {
    server.close();
  }
  const table: BenchTable = {
    title: `The /topology page in Chromium, median of ${ctx.runs} page loads per size`,
    columns: [
      'servers',
      'attachments',
      'topology JSON',
      'layout (in a worker)',
      'first graph frame ms',
      'each load ms',
      'main-thread blocking ms',
      'longest task ms',
      'fit whole graph ms',
      'elements drawn at first frame',
    ],
    rows: results.map((r) => [
      fmtInt(r.servers),
      fmtInt(r.attachments),
      `${(r.jsonBytes / 1e6).toFixed(1)} MB`,
      layoutOf(r.runs),
      `**${fmtMs(median(r.runs.map((x) => x.paint)))}**`,
      r.runs.map((x) => fmtMs(x.paint)).join(', '),
      fmtMs(median(r.runs.map((x) => x.tbt))),
      fmtMs(median(r.runs.map((x) => x.longest))),
      fmtMs(median(r.runs.map((x) => x.fitAll))),
      `${fmtInt(median(r.runs.map((x) => x.nodes)))} nodes, ${fmtInt(median(r.runs.map((x) => x.edges)))} lines`,
    ]),
  };
  const biggest = results.at(-1);
  return [
    {
      title: `Dashboard: the topology page at ${fmtInt(biggest?.servers ?? 0)} servers`,
      command: 'npm run bench -- --only dashboard   # or: npx tsx bench/topology-page.bench.ts',
      method:
        `Debian's Chromium (\`${CHROMIUM}\`, headless, \`--disable-gpu\`: rasterising in software) ` +
        `opens \`/topology\` at 1440×1000 in a fresh browser context per load. The page comes from ` +
        `\`apps/web/dist\` (rebuilt first when older than its sources) on a small static server; ` +
        `\`/api/session\` (an admin) and \`/api/topology\` are answered by Playwright route mocks with a ` +
        `generated whole-cloud topology shaped like the cloud bench's data ` +
        `(\`features/topology/testing/generate-topology.ts\`: ${biggest?.hosts ?? '?'} hosts, 1 shared ` +
        `volume per 5 servers, 4 attachments per server, ~10% read-write, ~1.5% stuck), so the figure is ` +
        `the page's own work: the time the endpoint itself takes at this size is in the cloud's ` +
        `reads-at-scale section. "First graph frame" is the time from navigation to the second ` +
        `animation frame after server nodes enter the DOM (a MutationObserver installed before the app ` +
        `runs), i.e. the first paint of the graph; "blocking" sums the long tasks' time over 50 ms up to ` +
        `then; "fit whole graph" clicks the fit button and waits two frames. No number is written as a ` +
        `target for this page: the issue asks for it to be usable at 5,000 servers with the layout in a ` +
        `Web Worker, so the main thread never freezes on it.`,
      tables: [table],
      verdicts: [],
      notes: [
        'Where the time goes at 5,000 servers (one traced load, 2.9 s in all on this 2-core machine): ' +
          '~1.5 s until the 6.1 MB answer is in (page, lazy chunk, session, the route mock), ~0.3 s ' +
          'parsing and validating it (zod) and preparing the layout input, ~0.3 s for the worker to ' +
          'start and lay out, and ~0.85 s building 26,000 React Flow elements and rendering the visible ' +
          'ones (`onlyRenderVisibleElements`: under a hundred nodes and a few hundred lines at the ' +
          'opening zoom).',
        'The layout: elk (layered) while the host-volume graph has at most 400 nodes and 1,500 links ' +
          '(about a second in Node at that size; 2.9 s at 2,000 servers), with an 8 s watchdog that ' +
          'terminates the worker and falls back to columns; beyond that a columns layout in a worker ' +
          'without elk (a few KB instead of 1.47 MB to fetch and compile), which wraps hosts into bands ' +
          'once a column would pass 4,000 px. elk orders hosts and volumes on the host-volume graph and ' +
          "two barycentre sweeps order each host's servers: elk's hierarchy handling (servers inside " +
          'host boxes) took 46 s at 500 servers, and its order for a flat host → server → volume graph ' +
          'crossed up to 40% more lines than the sweeps.',
        'What it took to get here: the dot background is hidden below zoom 0.3 (at zoom 0.01 it meant ' +
          'millions of sub-pixel dots and 1.9 s of rasterising); below zoom 0.2 a big graph switches to ' +
          'an overview of hosts and volumes only, before zooming out (fit whole graph went from 4–7 s to ' +
          "~1.9 s); nodes carry their known size as `measured`, or React Flow's `fitView` waits for " +
          'nodes `onlyRenderVisibleElements` never renders; the minimap mounts after the first frame ' +
          '(longest task 640 → 430 ms).',
      ],
    },
  ];
}

if (isMain(import.meta.url)) await runStandalone(run);
