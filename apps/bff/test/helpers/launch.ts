import { expect } from 'vitest';
import type { ApiClient, ApiResult } from './stack.js';

/** Polls a launch until it is no longer running (the BFF drives it in the background). */
export async function waitForLaunch(c: ApiClient, id: string, timeoutMs = 20_000): Promise<ApiResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await c.get(`/api/launches/${id}`);
    expect(res.status).toBe(200);
    if (res.body.status !== 'running') return res;
    if (Date.now() > deadline) throw new Error(`launch ${id} still running: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A launch request body with the defaults the tests share. They are about launching, so they
 * acknowledge several writers on a shared volume; launch-writers.test.ts tests that rule.
 */
export function launchBody(over: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'fleet',
    count: 1,
    flavorId: '1',
    dataVolumes: [],
    acknowledgeMultipleWriters: true,
    ...over,
  };
}
