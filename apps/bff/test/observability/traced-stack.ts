import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { type BootedCloud, bootCloud } from '../../../cloud/src/boot.js';
import { testConfig } from '../../../cloud/src/config.js';
import { createLogger as createCloudLogger } from '../../../cloud/src/platform/logger.js';
import { createBffApp } from '../../src/app.js';
import { type BffConfig, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { MemorySessionStore } from '../../src/platform/session-store.js';
import { type LogBuffer, logBuffer } from './log-buffer.js';

/** The bundled cloud and a BFF in this process, each logging at debug into a buffer a test reads. */
export interface TracedStack {
  bffUrl: string;
  cloudUrl: string;
  cloudLog: LogBuffer;
  bffLog: LogBuffer;
  /** Signs in as demo; returns the session cookie. */
  signIn(): Promise<string>;
  /** Stops the cloud (its port then refuses connections); the BFF keeps running. */
  stopCloud(): Promise<void>;
  close(): Promise<void>;
}

const listen = (app: Express) =>
  new Promise<Server>((resolve) => {
    const s: Server = app.listen(0, '127.0.0.1', () => resolve(s));
  });
const urlOf = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const shut = async (s: Server) => {
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
};

export async function startTracedStack(bff: Partial<BffConfig> = {}): Promise<TracedStack> {
  const cloudLog = logBuffer();
  const bffLog = logBuffer();
  let cloud: BootedCloud | null = await bootCloud(
    testConfig(),
    createCloudLogger('debug', { destination: cloudLog }),
  );
  let cloudServer: Server | null = await listen(cloud.app);
  const cloudUrl = urlOf(cloudServer);
  const app = createBffApp({
    config: {
      ...loadConfig({}),
      databaseFile: ':memory:',
      port: 0,
      authUrl: `${cloudUrl}/identity/v3`,
      webDist: '/nonexistent',
      loginRateLimit: 1000,
      ...bff,
    },
    logger: createLogger('debug', { destination: bffLog }),
    sessions: new MemorySessionStore(),
  });
  const bffServer = await listen(app);
  const bffUrl = urlOf(bffServer);
  const stopCloud = async () => {
    if (cloudServer) await shut(cloudServer);
    await cloud?.close();
    cloudServer = null;
    cloud = null;
  };
  return {
    bffUrl,
    cloudUrl,
    cloudLog,
    bffLog,
    async signIn() {
      const res = await fetch(`${bffUrl}/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'demo', password: 'demo' }),
      });
      if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
      return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    },
    stopCloud,
    async close() {
      await shut(bffServer);
      await stopCloud();
    },
  };
}
