import { unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Journey d: a member cannot open another project's volume. The admin makes a volume in project admin
// (through the BFF's API); demo, a member of project demo only, opens its page by id and is told there
// is no such volume: not the volume, and not a hint that it exists elsewhere.

test("a member opening another project's volume by id sees not-found, not the volume", async ({
  page,
  adminApi,
  memberApi,
  scan,
  snapshot,
}) => {
  const name = unique('e2e-admin-only');
  const secret = await adminApi.createVolume({ name, sizeGb: 1, type: 'multiattach' });
  expect(secret.projectId).toBe(adminApi.projectId);
  expect(secret.projectId).not.toBe(memberApi.projectId);

  // The API says the same to the member: 404, nothing about the volume.
  const res = await memberApi.context.get(`/api/volumes/${secret.id}`);
  expect(res.status()).toBe(404);
  expect(await res.text()).not.toContain(name);

  await signIn(page, USERS.member, scan);
  await page.goto(`/volumes/${secret.id}`);
  await expect(page.getByText('This volume does not exist')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to volumes' })).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Attach to a server' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete volume' })).toHaveCount(0);
  await scan('volume detail (not found)');
  await snapshot('isolation');

  // Nor does it turn up in the member's list.
  await page.getByRole('link', { name: 'Back to volumes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Volumes' })).toBeVisible();
  await expect(page.getByText(/Block volumes in project demo/)).toBeVisible();
  await expect(page.getByRole('link', { name })).toHaveCount(0);
  await scan('volumes list (back from not found)');
});
