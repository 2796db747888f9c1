import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// End-to-end journeys through the dashboard in Debian's Chromium (never `npx playwright install`).
// scripts/test.mjs runs `npx playwright test` only when e2e/ holds a *.spec.ts file, and reads the
// counts from the JSON report below.

const root = dirname(fileURLToPath(import.meta.url));
// E2E_CLOUD_PORT / E2E_PORT move the stack when another one already holds the defaults.
const CLOUD_PORT = process.env.E2E_CLOUD_PORT ?? '8790';
const PORT = process.env.E2E_PORT ?? '8090';
const baseURL = `http://127.0.0.1:${PORT}`;

// A fresh database for every run. The config is evaluated again in each worker process: the first
// evaluation (the runner, which starts the web server) picks the file and the workers inherit it. The
// previous runs' files go then; the last one stays until the next run, to look into after a failure.
const resultsDir = resolve(root, '.test-results');
if (!process.env.E2E_DATABASE_URL) {
  mkdirSync(resultsDir, { recursive: true });
  for (const f of readdirSync(resultsDir)) {
    if (/^e2e-\d+(-bff)?\.db(-wal|-shm|-journal)?$/.test(f)) rmSync(resolve(resultsDir, f), { force: true });
  }
  const stamp = Date.now();
  process.env.E2E_DATABASE_URL = `file:${resolve(resultsDir, `e2e-${stamp}.db`)}`;
  // The dashboard's launches, in a file of their own next to it (a journey restarts the dashboard on it).
  process.env.E2E_BFF_DATABASE_FILE = resolve(resultsDir, `e2e-${stamp}-bff.db`);
}

export default defineConfig({
  testDir: './e2e',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: '.test-results/playwright.json' }]],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
    },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  // One server: the bundled cloud on 8790 and the dashboard on 8090 (never a developer's `npm start`
  // on 8780/8080), on a new SQLite file, with the web app built from the current sources first.
  webServer: {
    command: 'npm run build --workspace apps/web && exec node scripts/start.mjs',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    // start.mjs runs the cloud and the BFF in their own process groups and stops them on SIGTERM;
    // a SIGKILL would leave them holding the ports.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      CLOUD_PORT,
      PORT,
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      BFF_DATABASE_FILE: process.env.E2E_BFF_DATABASE_FILE ?? resolve(resultsDir, 'e2e-bff.db'),
      CLOUD_BACKEND_DELAY_MS: '200',
      LOG_LEVEL: 'warn',
      // Every journey signs in through the UI and the API; the default 20 per 15 min is for people.
      LOGIN_RATE_LIMIT: '1000',
    },
  },
});
