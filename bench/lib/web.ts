/**
 * The web app for the dashboard benches: its build (apps/web/dist, rebuilt when older than its
 * sources) and Debian's Chromium driven by playwright-core (never a downloaded browser).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { repoRoot, webDist } from '../../scripts/web-bundle.mjs';
import { stopwatch } from './stats.js';
import type { BenchContext } from './types.js';

export { repoRoot, webDist };

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, software rendering, and nothing of its own on the network while it is measured. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** What the web app is built from: a change in any of these makes apps/web/dist stale. */
const SOURCES = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/shared/src',
  'package-lock.json',
];

function newestMtime(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Whether apps/web/dist exists and is newer than every source it is built from. */
export function webDistState(): { fresh: boolean; reason: string } {
  const index = join(webDist, 'index.html');
  const manifest = join(webDist, '.vite/manifest.json');
  if (!existsSync(index) || !existsSync(manifest))
    return { fresh: false, reason: 'apps/web/dist is missing' };
  const built = statSync(manifest).mtimeMs;
  const stale = SOURCES.find((s) => newestMtime(join(repoRoot, s)) > built);
  return stale
    ? { fresh: false, reason: `${stale} changed after the last build` }
    : { fresh: true, reason: 'apps/web/dist is newer than its sources' };
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `npm run build --workspace apps/web` (with extra vite arguments); its wall time in ms. */
export function buildWeb(viteArgs: string[] = []): Promise<number> {
  const t = stopwatch();
  const args = ['run', 'build', '--workspace', 'apps/web', ...(viteArgs.length ? ['--', ...viteArgs] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(t()) : reject(new Error(`web build failed (exit ${code}):\n${out.slice(-3000)}`)),
    );
  });
}

export interface WebBuild {
  /** Whether this run built apps/web/dist, and how long that took. */
  builtMs?: number;
  reason: string;
}

/** apps/web/dist as the sources are now: built here when missing or stale. */
export async function ensureWebBuild(ctx: Pick<BenchContext, 'log'>): Promise<WebBuild> {
  const state = webDistState();
  if (state.fresh) return { reason: state.reason };
  ctx.log(`web: building apps/web (${state.reason})`);
  const builtMs = await buildWeb();
  return { builtMs, reason: state.reason };
}
