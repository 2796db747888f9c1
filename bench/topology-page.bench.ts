/**
 * The /topology page at 5,000 servers / 20,000 attachments in Chromium: time from navigation to the
 * first painted frame of the graph, how long the main thread was blocked, and the worst case (zooming
 * out to the whole graph). Also checks the sign-in page's initial JavaScript stays under 200 KB gzip.
 *
 *   (cd apps/web && npx vite build) && npx tsx bench/topology-page.bench.ts
 *   BENCH_SERVERS=2000 BENCH_RUNS=3 npx tsx bench/topology-page.bench.ts
 *
 * Serves apps/web/dist from a small static server and answers /api/session and /api/topology with
 * Playwright route mocks (a generated whole-cloud topology), so nothing but the page is measured.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { sessionFixture } from '../apps/web/src/features/topology/testing/fixtures.js';
import { generateTopology } from '../apps/web/src/features/topology/testing/generate-topology.js';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const dist = resolve(import.meta.dirname, '../apps/web/dist');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The entry chunk and everything it imports statically: what the sign-in page downloads. */
function initialJs(): { files: string[]; raw: number; gzip: number } {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    { file: string; imports?: string[]; isEntry?: boolean }
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) walk(i);
  };
  if (entry) walk(entry);
  const files = [...seen].map((k) => manifest[k]?.file ?? k).filter((f) => f.endsWith('.js'));
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const body = readFileSync(join(dist, f));
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  return { files, raw, gzip };
}

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
    let file = join(dist, path);
    if (!file.startsWith(dist) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      file = join(dist, 'index.html');
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

async function main() {
  const login = initialJs();
  console.log(`sign-in page initial JS: ${login.files.join(', ')}`);
  console.log(`  ${kb(login.raw)} raw, ${kb(login.gzip)} gzip (budget 200 KB gzip)`);

  const topology = generateTopology({ servers: SERVERS });
  const body = JSON.stringify(topology);
  const session = JSON.stringify(sessionFixture(true));
  console.log(
    `topology: ${topology.hosts.length} hosts, ${topology.servers.length} servers, ${topology.volumes.length} volumes, ` +
      `${topology.edges.length} attachments, ${topology.risks.length} risks, ${kb(body.length)} JSON`,
  );
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const server = await serveDist();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const rows: {
    paint: number;
    tbt: number;
    longest: number;
    layout: string;
    fitAll: number;
    nodes: number;
    edges: number;
  }[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
      const page = await context.newPage();
      await page.addInitScript(probe);
      if (process.env.BENCH_DEBUG) page.on('console', (msg) => console.log('page:', msg.type(), msg.text()));
      if (process.env.BENCH_DEBUG) page.on('pageerror', (err) => console.log('page error:', err.message));
      await page.route('**/api/**', (route) => {
        const url = new URL(route.request().url());
        if (url.pathname === '/api/session')
          return route.fulfill({ contentType: 'application/json', body: session });
        if (url.pathname === '/api/topology') return route.fulfill({ contentType: 'application/json', body });
        return route.fulfill({ status: 204 });
      });
      await page.goto(`${base}/topology`);
      await page.waitForFunction(
        () => (window as unknown as { __bench: { paintAt?: number } }).__bench.paintAt,
        null,
        {
          timeout: Number(process.env.BENCH_TIMEOUT_MS ?? 120_000),
          polling: 100,
        },
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
      const afterFit = await page.evaluate(() => ({
        nodes: document.querySelectorAll('.react-flow__node').length,
        viewport: document.querySelector('.react-flow__viewport')?.getAttribute('style') ?? '',
      }));
      const tbt = m.longTasks.reduce((s, d) => s + Math.max(0, d - 50), 0);
      const row = {
        paint: m.paint,
        tbt,
        longest: Math.max(0, ...m.longTasks),
        layout,
        fitAll,
        nodes: m.nodes,
        edges: m.edges,
      };
      rows.push(row);
      console.log(
        `run ${run + 1}: first graph frame ${row.paint.toFixed(0)} ms after navigation; ` +
          `blocking ${row.tbt.toFixed(0)} ms (longest task ${row.longest.toFixed(0)} ms); ` +
          `${row.nodes} nodes / ${row.edges} edges rendered; fit-all ${row.fitAll.toFixed(0)} ms (${afterFit.nodes} nodes, ${afterFit.viewport}); ${layout}`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(
    `median of ${rows.length}: first graph frame ${median(rows.map((r) => r.paint)).toFixed(0)} ms, ` +
      `total blocking ${median(rows.map((r) => r.tbt)).toFixed(0)} ms, longest task ${median(rows.map((r) => r.longest)).toFixed(0)} ms, ` +
      `fit-all ${median(rows.map((r) => r.fitAll)).toFixed(0)} ms`,
  );
  console.log(
    `load after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

await main();
