import type { Page } from '@playwright/test';
import { unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Journey b: a member attaches a plain (not shared) volume to one server through the Attach Volume
// dialog, then tries to attach it to a second server and is told why not, before sending anything.

/** Opens a server's page from the Servers list (scanning the list on the way when asked). */
async function openServer(page: Page, name: string, scan?: (where: string) => Promise<void>) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Servers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
  await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
  if (scan) await scan('servers list');
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toContainText('ACTIVE');
}

test('a member attaches a plain volume to one server and is refused a second server, with the reason', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  // What the journey is not about: two running servers and a plain volume (through the BFF's API).
  const serverName = unique('app');
  const volumeName = unique('e2e-plain');
  const [servers, volume] = await Promise.all([
    memberApi.launch({ name: serverName, count: 2, boot: { source: 'image' }, availabilityZone: 'nova' }),
    memberApi.createVolume({ name: volumeName, sizeGb: 1, type: '__DEFAULT__' }),
  ]);
  expect(volume.shared).toBe(false);
  const [first, second] = servers.map((s) => s.name);

  await signIn(page, USERS.member, scan);
  await openServer(page, first!, scan);
  await scan('server detail (no volumes)');

  // Attach it to the first server, read-write.
  await page.getByRole('button', { name: 'Attach volume' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Attach a volume' });
  await expect(dialog).toBeVisible();
  const pick = dialog.getByRole('radio', { name: new RegExp(volumeName) });
  await expect(pick).toBeEnabled();
  await scan('attach dialog (first server)');
  await pick.check();
  await expect(dialog.getByRole('checkbox', { name: 'Attach read-only' })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Attach read-write' }).click();
  await expect(dialog).toBeHidden();

  const held = page.getByRole('table', { name: `Volumes attached to server ${first}` });
  const row = held.getByRole('row').filter({ has: page.getByRole('link', { name: volumeName }) });
  await expect(row).toContainText('read-write');
  await expect(row).toContainText('attached');
  await scan('server detail (volume attached)');

  // The second server: the dialog lists the volume as one that cannot attach, and says why.
  await openServer(page, second!);
  await page.getByRole('button', { name: 'Attach volume' }).first().click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: /Cannot attach/ })).toBeVisible();
  const refused = dialog.getByRole('radio', { name: new RegExp(volumeName) });
  await expect(refused).toBeDisabled();
  const reason = new RegExp(
    `Volume '?${volumeName}'? is attached to another server and is not a shared \\(multiattach\\) volume`,
  );
  await expect(refused).toHaveAccessibleDescription(reason);
  await expect(dialog.getByText(reason)).toBeVisible();
  await scan('attach dialog (second server, refused)');
  await snapshot('attach-plain');

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: `Volumes attached to server ${second}` })).toBeHidden();
  await expect(page.getByText('No volumes attached')).toBeVisible();

  // Asked anyway, the BFF refuses it for the same reason, in Nova's words: the volume is already
  // attached to the first server (what the dialog would show inline).
  const res = await memberApi.context.post(`/api/servers/${servers[1]!.id}/attachments`, {
    data: { volumeId: volume.id, mode: 'rw', acknowledgeMultipleWriters: false },
    headers: { 'X-CSRF-Token': memberApi.csrfToken },
  });
  expect(res.status(), await res.text()).toBe(400);
  expect((await res.json()).error).toMatchObject({
    code: 'cloud_rejected',
    message: `Invalid volume: volume ${volume.id} is already attached to instances: ${servers[0]!.id}`,
  });
  const now = await memberApi.volume(volume.id);
  expect(now.attachments.map((a) => a.serverName)).toEqual([first]);
});
