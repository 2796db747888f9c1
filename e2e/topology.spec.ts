import { unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Journey c: an admin opens the topology and finds a shared volume's read-write and read-only
// attachments, and the flag that says two servers write to it. Set up through the BFF's API: three
// servers, and one shared volume attached read-write to two of them (the second only with the
// acknowledgement) and read-only to the third.

test('an admin finds the rw and ro edges and the two-writer flag on the topology', async ({
  page,
  adminApi,
  scan,
  snapshot,
}) => {
  const base = unique('db');
  const volumeName = unique('e2e-cluster');
  const [servers, volume] = await Promise.all([
    adminApi.launch({ name: base, count: 3, boot: { source: 'image' }, availabilityZone: 'nova' }),
    adminApi.createVolume({ name: volumeName, sizeGb: 1, type: 'multiattach' }),
  ]);
  const [w1, w2, r1] = servers;
  await adminApi.attach(w1!.id, volume.id, 'rw');
  // A second writer is refused without the acknowledgement…
  const refused = await adminApi.context.post(`/api/servers/${w2!.id}/attachments`, {
    data: { volumeId: volume.id, mode: 'rw', acknowledgeMultipleWriters: false },
    headers: { 'X-CSRF-Token': adminApi.csrfToken },
  });
  expect(refused.status()).toBe(409);
  expect((await refused.json()).error.code).toBe('multiple_writers_unacknowledged');
  // …and accepted with it.
  await adminApi.attach(w2!.id, volume.id, 'rw', true);
  await adminApi.attach(r1!.id, volume.id, 'ro');

  await signIn(page, USERS.admin, scan);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Topology' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Topology' })).toBeVisible();
  await expect(page.getByText(/for the whole cloud/)).toBeVisible();

  // Narrow the view to this volume (the other journeys' attachments are in the same cloud).
  await page
    .getByRole('combobox', { name: 'Volume' })
    .selectOption({ label: `${volumeName} (${volume.id.slice(0, 8)})` });
  await expect(page).toHaveURL(new RegExp(`volume=${volume.id}`));

  // The graph: the volume's node carries the flag; one edge per server, in its mode.
  const graph = page.getByRole('region', { name: /Topology graph/ });
  const volumeNode = graph.getByRole('group', { name: new RegExp(`^Volume ${volumeName},`) });
  await expect(volumeNode).toBeVisible({ timeout: 30_000 });
  await expect(volumeNode).toHaveAccessibleName(/2 read-write and 1 read-only attachments/);
  await expect(volumeNode).toHaveAccessibleName(/warning: several writers/);
  await expect(volumeNode).toContainText('2 writers');
  const edge = (server: string, mode: string) =>
    graph.getByRole('img', { name: `${server} to ${volumeName}, ${mode}, attached` });
  await expect(edge(w1!.name, 'read-write')).toBeAttached();
  await expect(edge(w2!.name, 'read-write')).toBeAttached();
  await expect(edge(r1!.name, 'read-only')).toBeAttached();
  for (const s of servers) {
    await expect(graph.getByRole('group', { name: new RegExp(`^Server ${s.name}, ACTIVE`) })).toBeVisible();
  }

  // The risk panel names the two writers.
  const risks = page.getByRole('region', { name: /^Risks/ });
  const flag = risks.getByRole('listitem').filter({ hasText: `2 writers on ${volumeName}` });
  await expect(flag).toBeVisible();
  await expect(flag.getByRole('link', { name: w1!.name, exact: true })).toBeVisible();
  await expect(flag.getByRole('link', { name: w2!.name, exact: true })).toBeVisible();
  await expect(flag.getByRole('link', { name: r1!.name, exact: true })).toHaveCount(0);
  await scan('topology (graph)');
  await snapshot('topology');

  // The table view says the same in rows: two read-write with the writers flag, one read-only.
  await page.getByRole('button', { name: 'Table' }).click();
  await expect(page.getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');
  const table = page.getByRole('table', { name: /Every attachment/ });
  const row = (server: string) =>
    table.getByRole('row').filter({ has: page.getByRole('link', { name: server, exact: true }) });
  await expect(table.getByRole('row')).toHaveCount(4);
  for (const w of [w1!, w2!]) {
    await expect(row(w.name)).toContainText('read-write');
    await expect(row(w.name)).toContainText('several writers');
  }
  await expect(row(r1!.name)).toContainText('read-only');
  await expect(row(r1!.name)).not.toContainText('several writers');
  await scan('topology (table)');
  await snapshot('topology-table');
});
