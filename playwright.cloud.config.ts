import { defineConfig } from '@playwright/test';
import { cloudEnv } from './e2e-cloud/cloud-env';

// `npm run e2e:cloud`: the journeys of e2e-cloud/ against a real cloud, never part of `npm test`
// (which runs playwright.config.ts, testDir e2e/). Only the BFF (serving the web app) is started,
// pointed at the cloud's Keystone from E2E_OS_AUTH_URL; the journeys sign in with E2E_OS_USERNAME /
// E2E_OS_PASSWORD (see e2e-cloud/README.md). Debian's Chromium, never `npx playwright install`.

const env = cloudEnv();
// E2E_PORT moves the dashboard when another one holds the default.
const PORT = process.env.E2E_PORT ?? '8091';
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: './e2e-cloud',
  // A real cloud builds servers in seconds to minutes.
  timeout: 10 * 60_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['json', { outputFile: '.test-results/playwright-cloud.json' }]],
  outputDir: 'test-results/cloud-artifacts',
  globalSetup: './e2e-cloud/global-setup.ts',
  globalTeardown: './e2e-cloud/global-teardown.ts',
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
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'npm run build --workspace apps/web && exec node --import tsx apps/bff/src/main.ts',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT,
      OS_AUTH_URL: env.authUrl,
      // Sessions and launches in this BFF's memory, whatever DATABASE_URL the shell has.
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // Each journey signs in; the defaults are for people.
      LOGIN_RATE_LIMIT: '1000',
      LOGIN_ACCOUNT_RATE_LIMIT: '1000',
    },
  },
});
