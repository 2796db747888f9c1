import type { Page } from '@playwright/test';
import { unique, USERS } from './fixtures/api';
import { expect, pageOverflow, signIn, test } from './fixtures/test';

// Issue 17: the Launch wizard and the Attach dialog are usable on a phone (390 px wide): every step
// fits the screen (nothing makes the page scroll sideways) and passes axe.

test.use({ viewport: { width: 390, height: 844 } });

async function fitsTheScreen(page: Page, where: string) {
  expect(await pageOverflow(page), `${where} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
}

async function next(page: Page, step: string) {
  await page.getByRole('button', { name: `Next: ${step}` }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: new RegExp(`Step \\d of \\d: ${step}$`) }),
  ).toBeVisible();
}

test('the Launch wizard fits a 390 px screen at every step', async ({ page, scan, snapshot }) => {
  await signIn(page, USERS.member);
  await page.goto('/launch');
  await expect(page.getByRole('heading', { level: 1, name: 'Launch servers' })).toBeVisible();
  await page.getByLabel('Server name').fill(unique('narrow'));
  await page.getByLabel('Number of servers').fill('2');
  await fitsTheScreen(page, 'details step');
  await snapshot('narrow-launch-details');

  await next(page, 'Flavor');
  await page.getByRole('radio', { name: 'm1.nano' }).check();
  await fitsTheScreen(page, 'flavor step');
  await snapshot('narrow-launch-flavor');

  await next(page, 'Boot source');
  await page.getByRole('radio', { name: /An image/ }).check();
  await page.getByRole('radio', { name: /cirros/ }).check();
  await fitsTheScreen(page, 'boot step');

  await next(page, 'Data volumes');
  await fitsTheScreen(page, 'data volumes step');

  await next(page, 'Availability zone');
  await fitsTheScreen(page, 'zone step');

  await next(page, 'Networks');
  await fitsTheScreen(page, 'networks step');

  await next(page, 'Security groups');
  await fitsTheScreen(page, 'security groups step');

  await next(page, 'Key pair');
  // The longest form of the step: a new pair's name field and its button.
  await page.getByRole('radio', { name: 'Create a new key pair' }).check();
  await fitsTheScreen(page, 'key pair step');
  await scan('launch key pair step at 390 px');
  await page.getByRole('radio', { name: 'No key pair' }).check();

  await next(page, 'Review');
  await expect(page.getByText('Ready to launch.')).toBeVisible();
  await fitsTheScreen(page, 'review step');
  await scan('launch review at 390 px');
  await snapshot('narrow-launch-review');
});

test('the Attach dialog fits a 390 px screen', async ({ page, memberApi, scan, snapshot }) => {
  const volumeName = unique('e2e-narrow');
  const [[server]] = await Promise.all([
    memberApi.launch({
      name: unique('narrow'),
      count: 1,
      boot: { source: 'image' },
      availabilityZone: 'nova',
    }),
    memberApi.createVolume({ name: volumeName, sizeGb: 1, type: 'multiattach' }),
  ]);
  await signIn(page, USERS.member);
  await page.goto(`/servers/${server!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(server!.name) })).toContainText(
    'ACTIVE',
  );
  await fitsTheScreen(page, 'server page');
  await page.getByRole('button', { name: 'Attach volume' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Attach a volume' });
  await dialog.getByRole('radio', { name: new RegExp(volumeName) }).check();
  await fitsTheScreen(page, 'Attach dialog');
  // Its buttons are on screen, not cut off at the side.
  const box = await dialog.getByRole('button', { name: /Attach read-/ }).boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  await scan('attach dialog at 390 px');
  await snapshot('narrow-attach-dialog');
});
