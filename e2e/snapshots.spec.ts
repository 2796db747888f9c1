import type { Page } from '@playwright/test';
import { unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Issue 17, snapshots and bulk detach: a member snapshots a shared volume that three servers hold
// (the dialog says why an in-use snapshot needs a yes), makes a new volume from the snapshot, detaches
// two of the servers in one go with each outcome shown, and deletes the snapshot from the Snapshots page.

async function openVolume(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Volumes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Volumes' })).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeVisible();
}

test('a member snapshots a shared volume, makes a volume from it, bulk-detaches two servers and deletes the snapshot', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  test.setTimeout(300_000);
  const volumeName = unique('e2e-snap-src');
  const snapName = unique('e2e-snap');
  const restoredName = unique('e2e-restored');
  const serverName = unique('snap-holder');
  const [volume, servers] = await Promise.all([
    memberApi.createVolume({ name: volumeName, sizeGb: 1, type: 'multiattach' }),
    memberApi.launch({ name: serverName, count: 3, boot: { source: 'image' }, availabilityZone: 'nova' }),
  ]);
  for (const s of servers) await memberApi.attach(s.id, volume.id, 'ro');

  await signIn(page, USERS.member, scan);
  await openVolume(page, volumeName);
  const snapshots = page.getByRole('region', { name: /^Snapshots/ });
  await expect(snapshots.getByText('No snapshots of this volume')).toBeVisible();

  // Snapshot the in-use volume: not without the user's yes, and the dialog says why.
  await snapshots.getByRole('button', { name: 'Create snapshot' }).click();
  const create = page.getByRole('dialog', { name: `Snapshot ${volumeName}` });
  await create.getByRole('textbox', { name: 'Name' }).fill(snapName);
  await create.getByRole('button', { name: 'Create snapshot' }).click();
  await expect(create.getByText('Tick this to snapshot a volume that is in use.')).toBeVisible();
  const force = create.getByRole('checkbox', { name: 'Snapshot it while it is in use' });
  await expect(force).toHaveAccessibleDescription(/as after a power cut/);
  await scan('create snapshot dialog (in use)');
  await force.check();
  await create.getByRole('button', { name: 'Create snapshot' }).click();
  await expect(create).toBeHidden();
  const row = snapshots.getByRole('row').filter({ hasText: snapName });
  await expect(row).toContainText('available', { timeout: 15_000 });
  await scan('volume page with a snapshot');
  await snapshot('snapshots-volume');

  // A volume from the snapshot: the new volume's page opens.
  await row.getByRole('button', { name: `Create volume from snapshot ${snapName}` }).click();
  const restore = page.getByRole('dialog', { name: 'Create volume from snapshot' });
  await restore.getByRole('textbox', { name: 'Name' }).fill(restoredName);
  await scan('create volume from snapshot dialog');
  await restore.getByRole('button', { name: 'Create volume' }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(restoredName) })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(restoredName) })).toContainText(
    'available',
    { timeout: 15_000 },
  );

  // Bulk detach: two of the three servers, one confirmation naming both, each outcome.
  await openVolume(page, volumeName);
  const first = servers[0]!;
  const second = servers[1]!;
  await page.getByRole('checkbox', { name: `Select ${first.name}` }).check();
  await page.getByRole('checkbox', { name: `Select ${second.name}` }).check();
  await page.getByRole('button', { name: 'Detach 2' }).click();
  const bulk = page.getByRole('dialog', { name: 'Detach 2 attachments?' });
  const items = bulk.getByRole('list', { name: 'Attachments to detach' });
  await expect(items).toContainText(`${volumeName} from ${first.name}`);
  await expect(items).toContainText(`${volumeName} from ${second.name}`);
  await scan('bulk detach confirmation');
  await bulk.getByRole('button', { name: 'Detach 2' }).click();
  const done = page.getByRole('dialog', { name: 'Detach finished' });
  await expect(done.getByText('All 2 detached.')).toBeVisible({ timeout: 60_000 });
  await snapshot('snapshots-bulk-detach');
  await done.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { level: 2, name: /Attachments/ })).toContainText('(1)', {
    timeout: 15_000,
  });

  // The Snapshots page, from the navigation: the snapshot with its volume; delete it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Snapshots' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Snapshots' })).toBeVisible();
  const listed = page.getByRole('row').filter({ hasText: snapName });
  await expect(listed.getByRole('link', { name: volumeName })).toBeVisible();
  await scan('snapshots page');
  await listed.getByRole('button', { name: `Delete snapshot ${snapName}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete snapshot?' });
  await confirm.getByRole('button', { name: 'Delete snapshot' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: snapName })).toHaveCount(0, { timeout: 15_000 });
});
