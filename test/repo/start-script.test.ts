import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiPaths } from '@sv/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerLine, childEnvironment, portTakenMessage, startPlan } from '../../scripts/start-plan.mjs';
import { freePort, processesWith, type Started, startProcess, until200 } from './processes.js';

/**
 * `npm start` (scripts/start.mjs): one line to act on once everything answers, the web app's build
 * kept quiet, pretty logs, and colour codes only for a terminal.
 */

describe('what start gives its children', () => {
  it('pretty logs unless LOG_FORMAT is set', () => {
    expect(childEnvironment({}, { tty: false }).LOG_FORMAT).toBe('pretty');
    expect(childEnvironment({ LOG_FORMAT: 'json' }, { tty: true }).LOG_FORMAT).toBe('json');
  });

  it('NO_COLOR when its output is not a terminal, FORCE_COLOR when it is', () => {
    const piped = childEnvironment({ PATH: '/bin' }, { tty: false });
    expect(piped).toMatchObject({ PATH: '/bin', NO_COLOR: '1' });
    expect(piped.FORCE_COLOR).toBeUndefined();
    const terminal = childEnvironment({}, { tty: true });
    expect(terminal).toMatchObject({ FORCE_COLOR: '1' });
    expect(terminal.NO_COLOR).toBeUndefined();
  });

  it("keeps the user's own NO_COLOR or FORCE_COLOR", () => {
    const noColour = childEnvironment({ NO_COLOR: 'yes', FORCE_COLOR: '1' }, { tty: true });
    expect(noColour.NO_COLOR).toBe('yes');
    expect(noColour.FORCE_COLOR).toBeUndefined();
    const forced = childEnvironment({ FORCE_COLOR: '2' }, { tty: false });
    expect(forced.FORCE_COLOR).toBe('2');
    expect(forced.NO_COLOR).toBeUndefined();
  });
});

describe("start's banner", () => {
  it('names the dashboard and the real passwords', () => {
    const plan = startPlan(
      { PORT: '9090', OS_DEMO_PASSWORD: 'd', OS_ADMIN_PASSWORD: 'a' },
      { root: '/repo', tty: false },
    );
    expect(plan.banner).toBe('Dashboard: http://127.0.0.1:9090 — sign in as demo / d (admin / a)');
    expect(plan.bffEnv.OS_AUTH_URL).toBe('http://127.0.0.1:8780/identity/v3');
  });

  it('gives an address a browser can open when the dashboard listens on every interface', () => {
    expect(startPlan({ HOST: '0.0.0.0' }, { root: '/repo', tty: false }).dashboardUrl).toBe(
      'http://127.0.0.1:8080',
    );
    expect(startPlan({ HOST: '::1', PORT: '81' }, { root: '/repo', tty: false }).dashboardUrl).toBe(
      'http://[::1]:81',
    );
  });

  it('sends people to their own cloud when OS_AUTH_URL is not the bundled one', () => {
    const plan = startPlan({ OS_AUTH_URL: 'https://keystone.example.org/v3/' }, { root: '/r', tty: false });
    expect(plan.banner).toBe(
      bannerLine({
        dashboardUrl: 'http://127.0.0.1:8080',
        bundledCloud: false,
        authUrl: 'https://keystone.example.org/v3',
        demoPassword: '',
        adminPassword: '',
      }),
    );
    expect(plan.banner).toBe(
      'Dashboard: http://127.0.0.1:8080 — sign in with an account of the cloud at https://keystone.example.org/v3',
    );
  });
});

describe('ports another stack holds', () => {
  it('names the port, what needed it, and the way out', () => {
    const plan = startPlan({}, { root: '/repo', tty: false });
    const dashboard = plan.listens.filter((l) => l.variable === 'PORT');
    expect(portTakenMessage(dashboard, plan.listens)).toBe(
      'port 8080 (the dashboard) is already in use on 127.0.0.1; is another `npm start` running? Stop it, or start on other ports: CLOUD_PORT=8780 PORT=8081 npm start',
    );
    expect(portTakenMessage(plan.listens, plan.listens)).toContain(
      'port 8780 (the bundled cloud) and 8080 (the dashboard) are already in use',
    );
  });
});

// A run of the real script: the cloud and the BFF on ports of this test, a database and a web app
// directory of their own (missing, so start builds the web app into it).
describe('npm start, run for real', () => {
  let dir = '';
  const running: Started[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sv-start-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    // Whatever a failed test left behind goes too.
    for (const marker of markers) {
      for (const p of processesWith(`SV_START_TEST=${marker}`)) process.kill(p.pid, 'SIGKILL');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const markers: string[] = [];

  /** start.mjs's environment: the caller's without colour or log settings, plus `extra`. */
  async function environment(marker: string, extra: Record<string, string> = {}) {
    const { NO_COLOR: _n, FORCE_COLOR: _f, LOG_FORMAT: _l, ...rest } = process.env;
    const [cloudPort, port] = [await freePort(), await freePort()];
    markers.push(marker);
    return {
      env: {
        ...rest,
        CLOUD_PORT: String(cloudPort),
        PORT: String(port),
        DATABASE_URL: `file:${join(dir, `${marker}.db`)}`,
        WEB_DIST: join(dir, 'web'),
        CLOUD_BACKEND_DELAY_MS: '0',
        OS_DEMO_PASSWORD: `demo-${marker}`,
        OS_ADMIN_PASSWORD: `admin-${marker}`,
        SV_START_TEST: marker,
        ...extra,
      },
      port,
    };
  }

  /** The cloud and BFF processes start started (found by the marker in their environment). */
  function children(marker: string) {
    return processesWith(`SV_START_TEST=${marker}`).filter((p) =>
      p.argv.some((a) => a.endsWith('/src/main.ts')),
    );
  }
  const commandLines = (marker: string) => children(marker).map((p) => p.argv.join(' '));

  it('builds the web app quietly, then prints one line to act on once the dashboard answers; no colour codes into a pipe', async () => {
    const marker = `piped${process.pid}`;
    const { env, port } = await environment(marker);
    const start = startProcess(process.execPath, ['scripts/start.mjs'], env);
    running.push(start);

    const banner = await start.line(/^Dashboard: /, 150_000);
    const dashboard = `http://127.0.0.1:${port}`;
    expect(banner).toBe(
      `Dashboard: ${dashboard} — sign in as demo / demo-${marker} (admin / admin-${marker})`,
    );
    // Printed once both answer: the dashboard is up, serves the freshly built web app, and the
    // banner's password signs in.
    await until200(`${dashboard}/api/health`, 1_000);
    expect(await (await fetch(`${dashboard}/`)).text()).toContain('<div id="root">');
    const login = await fetch(dashboard + apiPaths.session, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'demo', password: `demo-${marker}` }),
    });
    expect(login.status).toBe(201);

    const out = start.output();
    expect(out).toMatch(/^\[start\] building the web app… done in \d+(\.\d)? s$/m);
    // Vite's own lines (its banner, file sizes, timing dump) stay out of the way.
    expect(out).not.toMatch(/vite v\d|modules transformed|built in|PLUGIN_TIMINGS|dist\/assets/);
    expect(out.match(/^Dashboard: /gm)).toHaveLength(1);
    expect(out).not.toContain('\u001b[');

    const kids = children(marker);
    expect(kids.map((k) => k.argv.find((a) => a.endsWith('/src/main.ts'))).sort()).toEqual([
      'apps/bff/src/main.ts',
      'apps/cloud/src/main.ts',
    ]);
    for (const kid of kids) {
      expect(kid.env.get('NO_COLOR')).toBe('1');
      expect(kid.env.has('FORCE_COLOR')).toBe(false);
      expect(kid.env.get('LOG_FORMAT')).toBe('pretty');
    }

    await start.stop();
    expect(start.child.exitCode).toBe(0);
    expect(commandLines(marker)).toEqual([]);
  });

  it('refuses to start, and says why, when its port is taken (not the banner of whatever holds it)', async () => {
    const marker = `taken${process.pid}`;
    const { env, port } = await environment(marker);
    const holder = createServer((_req, res) => res.end('{"status":"ok"}'));
    await new Promise<void>((done) => holder.listen(port, '127.0.0.1', done));
    try {
      const start = startProcess(process.execPath, ['scripts/start.mjs'], env);
      running.push(start);
      // 'close': exited, and all it printed has been read.
      await new Promise((done) => start.child.once('close', done));
      expect(start.child.exitCode).toBe(1);
      expect(start.output()).toContain(`port ${port} (the dashboard) is already in use on 127.0.0.1`);
      expect(start.output()).not.toMatch(/^Dashboard: /m);
      expect(children(marker)).toEqual([]);
    } finally {
      holder.close();
    }
  });

  // `script` (util-linux) runs start on a pseudo-terminal, as a person's shell would.
  const hasScript = (() => {
    try {
      execFileSync('script', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!hasScript)('asks its children for colour on a terminal', async () => {
    const marker = `tty${process.pid}`;
    const { env } = await environment(marker, { LOG_FORMAT: 'json' });
    const start = startProcess(
      'script',
      ['-qefc', `exec '${process.execPath}' scripts/start.mjs`, '/dev/null'],
      env,
    );
    running.push(start);
    await start.line(/Dashboard: /, 150_000);

    const kids = children(marker);
    expect(kids).toHaveLength(2);
    for (const kid of kids) {
      expect(kid.env.get('FORCE_COLOR')).toBe('1');
      expect(kid.env.has('NO_COLOR')).toBe(false);
      // The user's LOG_FORMAT stands.
      expect(kid.env.get('LOG_FORMAT')).toBe('json');
    }

    // Closing the terminal hangs start up; the children (in process groups of their own, which the
    // hangup does not reach) must go with it.
    const self = processesWith(`SV_START_TEST=${marker}`).find((p) => p.argv.includes('scripts/start.mjs'));
    expect(self).toBeDefined();
    process.kill(self!.pid, 'SIGHUP');
    await start.stop(15_000);
    const deadline = Date.now() + 10_000;
    while (children(marker).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(commandLines(marker)).toEqual([]);
  });
});
