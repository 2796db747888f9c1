import { describe, expect } from 'vitest';
import type { Session, TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { fault, volumeClient } from './volume-api-helpers.js';

/** Cinder's user messages: the scheduler's "no valid backend" for a volume, listed, shown, deleted. */

let tc: TestCloud;
let demoSession: Session;
let d: ReturnType<typeof volumeClient>;
let a: ReturnType<typeof volumeClient>;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo, admin }) => {
  tc = cloud;
  demoSession = demo;
  d = volumeClient(tc, demo);
  a = volumeClient(tc, admin);
});

interface MessageBody {
  id: string;
  resource_uuid: string;
  created_at: string;
  guaranteed_until: string;
}

/** A volume of a type no backend satisfies (as Tempest's test does): it goes to error. */
async function failedVolume(): Promise<string> {
  const type = await a.call('POST', '/types', {
    body: { volume_type: { name: `bogus-${Date.now()}`, extra_specs: { storage_protocol: 'nosuch' } } },
  });
  expect(type.status, type.text).toBe(200);
  const id = await d.createVolume({ volume_type: type.body.volume_type.id });
  expect((await d.show(id)).status).toBe('error');
  return id;
}

const messagesAbout = async (volumeId: string, client = d) =>
  ((await client.call('GET', '/messages', { version: '3.3' })).body.messages as MessageBody[]).filter(
    (m) => m.resource_uuid === volumeId,
  );

describe('volume user messages', () => {
  it("reports a volume no backend could take, in Cinder's shape, to its project and to admins", async () => {
    const healthy = await d.createVolume();
    expect(await messagesAbout(healthy)).toEqual([]);
    const volumeId = await failedVolume();
    const [message] = await messagesAbout(volumeId);
    expect(message).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event_id: 'VOLUME_VOLUME_001_003',
      user_message: 'schedule allocate volume:Could not find any available weighted backend.',
      message_level: 'ERROR',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/),
      guaranteed_until: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/),
      request_id: expect.stringMatching(/^req-[0-9a-f-]{36}$/),
      links: [
        {
          rel: 'self',
          href: `${tc.url}${demoSession.volumeBase}/messages/${message?.id}`,
        },
        { rel: 'bookmark', href: expect.stringContaining(`/volume/${demoSession.projectId}/messages/`) },
      ],
      resource_type: 'VOLUME',
      resource_uuid: volumeId,
    });
    const m = message as MessageBody;
    // Kept 30 days (message_ttl).
    expect(Date.parse(`${m.guaranteed_until}Z`) - Date.parse(`${m.created_at}Z`)).toBe(30 * 24 * 3600 * 1000);
    const shown = await d.call('GET', `/messages/${m.id}`, { version: '3.3' });
    expect(shown.status).toBe(200);
    expect(shown.body.message).toEqual(message);
    // Admins see every project's messages (capture 807) and may show them (capture 809).
    expect(await messagesAbout(volumeId, a)).toHaveLength(1);
    expect((await a.call('GET', `/messages/${m.id}`, { version: '3.3' })).status).toBe(200);
  });

  it('does not exist below 3.3 and 404s a missing message', async () => {
    const old = await d.call('GET', '/messages', { version: '3.0' });
    expect(old.status).toBe(404);
    expect(old.body).toEqual(fault(404, 'The resource could not be found.'));
    const missing = '00000000-0000-0000-0000-000000000000';
    for (const method of ['GET', 'DELETE']) {
      const res = await d.call(method, `/messages/${missing}`, { version: '3.3' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(fault(404, `Message ${missing} could not be found.`));
    }
  });

  it('filters, sorts and pages from 3.5', async () => {
    const first = await failedVolume();
    const second = await failedVolume();
    const byVolume = await d.call('GET', `/messages?resource_uuid=${second}`, { version: '3.5' });
    expect(byVolume.body.messages.map((m: { resource_uuid: string }) => m.resource_uuid)).toEqual([second]);
    // Before 3.5 the filter is ignored.
    const unfiltered = await d.call('GET', `/messages?resource_uuid=${second}`, { version: '3.4' });
    expect(unfiltered.body.messages.length).toBeGreaterThan(1);
    // A filter on no column matches nothing.
    expect((await d.call('GET', '/messages?nosuch=1', { version: '3.5' })).body).toEqual({ messages: [] });
    const newest = await d.call('GET', '/messages?limit=1&sort=created_at:desc', { version: '3.5' });
    expect(newest.body.messages.map((m: { resource_uuid: string }) => m.resource_uuid)).toEqual([second]);
    // A full page links to the next one, with the marker last (capture 811).
    expect(newest.body.messages_links[0].href).toMatch(
      /\/messages\?limit=1&sort=created_at%3Adesc&marker=[0-9a-f-]{36}$/,
    );
    const [oldest] = (await d.call('GET', '/messages?sort=created_at:asc', { version: '3.5' })).body.messages;
    const after = await d.call('GET', `/messages?sort=created_at:asc&marker=${oldest.id}`, {
      version: '3.5',
    });
    expect(after.body.messages.map((m: { id: string }) => m.id)).not.toContain(oldest.id);
    expect(after.body.messages.map((m: { resource_uuid: string }) => m.resource_uuid)).toContain(first);
    const badSort = await d.call('GET', '/messages?sort=nosuch', { version: '3.5' });
    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual(fault(400, 'Invalid input received: Invalid sort key'));
    const badLimit = await d.call('GET', '/messages?limit=x', { version: '3.5' });
    expect(badLimit.body).toEqual(fault(400, 'limit param must be an integer'));
  });

  it('deletes a message: 204, then it is gone', async () => {
    const volumeId = await failedVolume();
    const [message] = await messagesAbout(volumeId);
    const id = (message as MessageBody).id;
    const deleted = await d.call('DELETE', `/messages/${id}`, { version: '3.3' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    const again = await d.call('GET', `/messages/${id}`, { version: '3.3' });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(fault(404, `Message ${id} could not be found.`));
  });
});
