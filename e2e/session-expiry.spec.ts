import { unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Issue 17's small things: a session that ends in the middle of work says so, and signing in again
// returns the user to the page and the dialog they were on, with what they had chosen.

test('a session that ends with the Attach dialog open asks to sign in again, then attaches as asked', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  const serverName = unique('expiry');
  const volumeName = unique('e2e-expiry');
  const [[server], volume] = await Promise.all([
    memberApi.launch({ name: serverName, count: 1, boot: { source: 'image' }, availabilityZone: 'nova' }),
    memberApi.createVolume({ name: volumeName, sizeGb: 1, type: '__DEFAULT__' }),
  ]);
  expect(volume.shared).toBe(false);

  await signIn(page, USERS.member);
  await page.goto(`/servers/${server!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(server!.name) })).toContainText(
    'ACTIVE',
  );
  await page.getByRole('button', { name: 'Attach volume' }).first().click();
  const attach = page.getByRole('dialog', { name: 'Attach a volume' });
  await attach.getByRole('radio', { name: new RegExp(volumeName) }).check();

  // The session ends (here: its cookie is gone, as after expiry or a sign-out elsewhere).
  await page.context().clearCookies();
  await attach.getByRole('button', { name: 'Attach read-write' }).click();

  const again = page.getByRole('dialog', { name: 'Your session has ended' });
  await expect(again).toBeVisible();
  await expect(again.getByLabel('User name')).toHaveValue(USERS.member.username);
  // The page and the Attach dialog wait underneath, as they were.
  await expect(attach.getByRole('radio', { name: new RegExp(volumeName) })).toBeChecked();
  await scan('session ended over the attach dialog');
  await snapshot('session-ended-dialog');

  await again.getByLabel('Password', { exact: true }).fill(USERS.member.password);
  await again.getByRole('button', { name: 'Sign in again' }).click();
  await expect(again).toBeHidden();
  // The attach that met the ended session ran once the user was back.
  await expect(attach).toBeHidden();
  const held = page.getByRole('table', { name: `Volumes attached to server ${server!.name}` });
  const row = held.getByRole('row').filter({ has: page.getByRole('link', { name: volumeName }) });
  await expect(row).toContainText('read-write');
  await expect(page).toHaveURL(new RegExp(`/servers/${server!.id}$`));
});

test('an unknown address has a page with a heading and a way back', async ({ page, scan }) => {
  await signIn(page, USERS.member);
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await scan('not-found page');
  await page.getByRole('main').getByRole('link', { name: 'Servers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Servers' })).toBeVisible();
});
