import { http, login } from '../../../cloud/test/helpers/cloud.js';
import type { TestStack } from '../helpers/stack.js';

/**
 * Demo's snapshots for the authorization table's snapshot rows, made straight through the cloud's
 * API: a fresh one for each role that spends it (delete), and one the others aim at.
 */
export async function demoSnapshot(stack: TestStack, volumeId: string, name: string): Promise<string> {
  const demo = await login(stack.cloud, 'demo');
  const res = await http(stack.cloud, 'POST', `${demo.volumeBase}/snapshots`, {
    token: demo.token,
    body: { snapshot: { volume_id: volumeId, name } },
  });
  if (res.status !== 202) throw new Error(`snapshot: ${res.status} ${res.text}`);
  await stack.cloud.settle();
  return res.body.snapshot.id as string;
}
