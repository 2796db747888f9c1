import type { Page } from '@playwright/test';
import { unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Issue 17, volume actions: a member extends a volume, changes its type to shared (multiattach),
// marks it bootable, is told before trying why an attached volume cannot be deleted, and deletes a
// detached one. Everything the journey is about goes through the volume page.

/** Opens a volume's page from the Volumes list. */
async function openVolume(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Volumes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Volumes' })).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeVisible();
}

/** The value under a label in the volume's facts. */
const fact = (page: Page, label: string) =>
  page
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator('xpath=following-sibling::dd');

test('a member extends a volume, makes it shared and bootable, and deletes it; an attached one says why not', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  // A launch and several axe scans on a shared, busy machine: more than the default 90 s.
  test.setTimeout(300_000);
  const volumeName = unique('e2e-actions');
  const heldName = unique('e2e-held');
  const serverName = unique('holder');
  const [volume, held, servers] = await Promise.all([
    memberApi.createVolume({ name: volumeName, sizeGb: 1, type: '__DEFAULT__' }),
    memberApi.createVolume({ name: heldName, sizeGb: 1, type: '__DEFAULT__' }),
    memberApi.launch({ name: serverName, count: 1, boot: { source: 'image' }, availabilityZone: 'nova' }),
  ]);
  await memberApi.attach(servers[0]!.id, held.id, 'rw');

  await signIn(page, USERS.member, scan);
  await openVolume(page, volumeName);
  await expect(fact(page, 'Size')).toHaveText('1 GB');
  await scan('volume page with actions');

  // Extend: a size that is not larger is refused in words, then 3 GB goes through.
  await page.getByRole('button', { name: 'Extend' }).click();
  const extend = page.getByRole('dialog', { name: 'Extend volume' });
  const size = extend.getByLabel('New size (GB)');
  await size.fill('1');
  await extend.getByRole('button', { name: 'Extend' }).click();
  await expect(extend.getByText('Size must be between 2 and 16,384 GB')).toBeVisible();
  await scan('extend dialog (size refused)');
  await size.fill('3');
  await extend.getByRole('button', { name: 'Extend' }).click();
  await expect(extend).toBeHidden();
  await expect(fact(page, 'Size')).toHaveText('3 GB', { timeout: 15_000 });

  // Change type: the dialog says what becoming shared means.
  await page.getByRole('button', { name: 'Change type' }).click();
  const retype = page.getByRole('dialog', { name: 'Change volume type' });
  await retype.getByRole('combobox', { name: 'New type' }).selectOption('multiattach');
  await expect(retype.getByRole('note')).toContainText('several servers can then hold it at once');
  await scan('change type dialog');
  await retype.getByRole('button', { name: 'Change type' }).click();
  await expect(retype).toBeHidden();
  await expect(fact(page, 'Shared')).toHaveText('Yes (multiattach)', { timeout: 15_000 });
  await expect(fact(page, 'Type')).toHaveText('multiattach');

  // Set bootable, with a confirmation.
  await page.getByRole('button', { name: 'Mark bootable' }).click();
  const boot = page.getByRole('dialog', { name: 'Mark volume bootable?' });
  await boot.getByRole('button', { name: 'Mark bootable' }).click();
  await expect(boot).toBeHidden();
  await expect(fact(page, 'Bootable')).toHaveText('Yes');
  await expect(page.getByRole('button', { name: 'Mark not bootable' })).toBeVisible();
  await snapshot('volume-actions');

  // The attached volume: Delete is disabled, and the page says why before anything is sent.
  await openVolume(page, heldName);
  const del = page.getByRole('button', { name: 'Delete volume' });
  await expect(del).toBeDisabled();
  await expect(del).toHaveAccessibleDescription(/Attached to 1 server\. Detach it from every server first\./);
  await scan('attached volume page');
  await snapshot('volume-actions-attached');

  // The detached one is deleted after confirmation and leaves the list.
  await openVolume(page, volumeName);
  await page.getByRole('button', { name: 'Delete volume' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete volume?' });
  await confirm.getByRole('button', { name: 'Delete volume' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Volumes' })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await memberApi.get<{ volumes: { id: string }[] }>('/api/volumes')).volumes.map((v) => v.id),
      {
        timeout: 15_000,
      },
    )
    .not.toContain(volume.id);
});
