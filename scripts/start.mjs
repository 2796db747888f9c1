#!/usr/bin/env node
// `npm start`: the bundled cloud, then the dashboard's BFF pointed at it, in development mode (tsx).
// Builds the web app first when it is missing, quietly (its output only when it fails). Each child's
// output is prefixed with its name; once the cloud and the dashboard both answer their health checks,
// one line says where to go and how to sign in. Both stop on Ctrl-C / SIGTERM, or as soon as either
// one exits, and when the terminal closes. What the children get (pretty logs, colour only on a terminal) is in start-plan.mjs.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { portTakenMessage, startPlan } from './start-plan.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const plan = startPlan(process.env, { root, tty: Boolean(process.stdout.isTTY) });

const say = (msg) => process.stdout.write(`[start] ${msg}\n`);

function pipe(stream, tag, out) {
  createInterface({ input: stream }).on('line', (line) => out.write(`[${tag}] ${line}\n`));
}

/** Runs the web app's build with its output kept aside; resolves to its exit code and output. */
function runWebBuild() {
  const args = ['run', 'build', '--workspace', 'apps/web'];
  if (plan.customWebDist) args.push('--', '--outDir', plan.webDist);
  return new Promise((done) => {
    const child = spawn(npm, args, { cwd: root, env: plan.buildEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (b) => output.push(b));
    child.stderr.on('data', (b) => output.push(b));
    child.on('error', (err) => done({ code: 1, output: err.message }));
    child.on('close', (code) => done({ code: code ?? 1, output: Buffer.concat(output).toString() }));
  });
}

async function buildWebIfMissing() {
  if (existsSync(join(plan.webDist, 'index.html'))) return;
  process.stdout.write('[start] building the web app… ');
  const started = performance.now();
  const { code, output } = await runWebBuild();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) {
    process.stdout.write(`done in ${seconds} s\n`);
    return;
  }
  process.stdout.write(`failed (exit ${code}) after ${seconds} s; the build said:\n`);
  process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  say('the dashboard starts without its web app (the API still works)');
}

const children = new Map();
let stopping = false;
let exitCode = 0;

function start(tag, env) {
  // Node runs the TypeScript through tsx's loader: one process per app, in its own process group so
  // that stopping it stops whatever it started.
  const child = spawn(process.execPath, ['--import', 'tsx', `apps/${tag}/src/main.ts`], {
    cwd: root,
    env,
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
}

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

/** Polls `url` until it answers 200; returns the last answer otherwise (null: never reached). */
async function waitFor200(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < deadline && !stopping) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      const text = await res.text();
      if (res.ok) return { ok: true };
      last = `${res.status} ${text.slice(0, 200)}`;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ok: false, last };
}

// SIGHUP: the terminal closed. The children sit in process groups of their own, which it does not reach.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => stop(0));
// `npm start` does not always pass SIGTERM on: when npm goes, this goes too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop(0);
}, 1_000).unref();

/** Whether something already listens on host:port (another stack: its health would fool the wait below). */
function portTaken(host, port) {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', (err) => done(err.code === 'EADDRINUSE'));
    probe.once('listening', () => probe.close(() => done(false)));
    probe.listen(port, host);
  });
}

const taken = [];
for (const l of plan.listens) if (await portTaken(l.host, l.port)) taken.push(l);
if (taken.length > 0) {
  say(portTakenMessage(taken, plan.listens));
  process.exit(1);
}

await buildWebIfMissing();
if (!stopping) {
  start('cloud', plan.cloudEnv);
  const cloud = await waitFor200(plan.identityUrl);
  if (!cloud.ok) {
    if (!stopping) {
      say(`the cloud did not answer at ${plan.identityUrl} within 60 s`);
      stop(1);
    }
  } else {
    start('bff', plan.bffEnv);
    const dashboard = await waitFor200(plan.healthUrl);
    if (dashboard.ok) {
      process.stdout.write(`${plan.banner}\n`);
    } else if (!stopping) {
      // It may still come up (a cloud it cannot reach yet): keep running and say what it answered.
      say(
        `the dashboard did not report healthy at ${plan.healthUrl} within 60 s` +
          (dashboard.last ? ` (last answer: ${dashboard.last})` : ' (no answer)'),
      );
    }
  }
}
