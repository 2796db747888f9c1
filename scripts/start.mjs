#!/usr/bin/env node
// `npm start`: the bundled cloud, then the dashboard's BFF pointed at it. Builds the web app first
// when it has a build script and no dist yet. Each child's output is prefixed with its name; both
// stop on Ctrl-C / SIGTERM, or as soon as either one exits.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const cloudPort = process.env.CLOUD_PORT || '8780';
const cloudHost = process.env.CLOUD_HOST || '127.0.0.1';
// A cloud listening on every interface is still reached on loopback.
const reachHost = ['0.0.0.0', '::', '[::]'].includes(cloudHost) ? '127.0.0.1' : cloudHost;
const identityUrl = `http://${reachHost.includes(':') ? `[${reachHost}]` : reachHost}:${cloudPort}/identity/v3`;

const say = (msg) => process.stdout.write(`[start] ${msg}\n`);

function pipe(stream, tag, out) {
  createInterface({ input: stream }).on('line', (line) => out.write(`[${tag}] ${line}\n`));
}

function buildWebIfNeeded() {
  const pkgFile = join(root, 'apps/web/package.json');
  if (!existsSync(pkgFile)) return;
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  if (!pkg.scripts?.build || existsSync(join(root, 'apps/web/dist/index.html'))) return;
  say('building the web app (apps/web/dist is missing)');
  const r = spawnSync(npm, ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    say(`the web app did not build (exit ${r.status}); the API still starts`);
  }
}

const children = new Map();
let stopping = false;

function start(tag, env) {
  // Its own process group, so stopping it also stops what npm started under it.
  const child = spawn(npm, ['run', 'start', '--workspace', `apps/${tag}`], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  pipe(child.stdout, tag, process.stdout);
  pipe(child.stderr, tag, process.stderr);
  children.set(tag, child);
  child.on('exit', (code, signal) => {
    children.delete(tag);
    if (!stopping) {
      say(`${tag} exited (${signal ?? `code ${code}`}); stopping`);
      stop(code || 1);
    } else if (children.size === 0) {
      process.exit(exitCode);
    }
  });
  return child;
}

let exitCode = 0;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  if (children.size === 0) process.exit(code);
  for (const child of children.values()) signal(child, 'SIGTERM');
  // Whatever has not gone after a few seconds is killed.
  setTimeout(() => {
    for (const child of children.values()) signal(child, 'SIGKILL');
    process.exit(exitCode || 1);
  }, 5_000).unref();
}

function signal(child, sig) {
  try {
    if (process.platform === 'win32') child.kill(sig);
    else process.kill(-child.pid, sig);
  } catch {
    // already gone
  }
}

async function waitForCloud(timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return false;
    try {
      const res = await fetch(identityUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stop(0));
// `npm start` does not always pass SIGTERM on: when npm goes, this goes too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop(0);
}, 1_000).unref();

buildWebIfNeeded();
start('cloud', { CLOUD_PORT: cloudPort });
say(`waiting for the cloud at ${identityUrl}`);
if (!(await waitForCloud())) {
  if (!stopping) {
    say('the cloud did not answer in time');
    stop(1);
  }
} else {
  start('bff', { OS_AUTH_URL: process.env.OS_AUTH_URL || identityUrl, PORT: process.env.PORT || '8080' });
}
