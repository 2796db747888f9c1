import { describe, expect, it } from 'vitest';
import { listAllPages, markerAfter, onePage, queryString } from './paging.js';

/** A cloud holding `ids`, answering pages of `size` after `marker` with a next link while more remain. */
function fakeCollection(ids: string[], size: number) {
  const asked: { limit: string; marker?: string }[] = [];
  const fetchPage = async (paging: { limit: string; marker?: string }) => {
    asked.push(paging);
    const start = paging.marker === undefined ? 0 : ids.indexOf(paging.marker) + 1;
    const page = ids.slice(start, start + size).map((id) => ({ id }));
    const more = start + size < ids.length;
    return {
      servers: page,
      ...(more ? { servers_links: [{ rel: 'next', href: `?marker=${page.at(-1)?.id}` }] } : {}),
    };
  };
  return { asked, fetchPage };
}

describe('listAllPages', () => {
  it('follows next links, each page starting after the last id of the one before', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e'];
    const { asked, fetchPage } = fakeCollection(ids, 2);
    const all = await listAllPages('servers', fetchPage, 2);
    expect(all.map((s) => s.id)).toEqual(ids);
    expect(asked).toEqual([{ limit: '2' }, { limit: '2', marker: 'b' }, { limit: '2', marker: 'd' }]);
  });

  it('asks once when the first page has no next link', async () => {
    const { asked, fetchPage } = fakeCollection(['a'], 1000);
    expect(await listAllPages('servers', fetchPage)).toEqual([{ id: 'a' }]);
    expect(asked).toEqual([{ limit: '1000' }]);
  });

  it('stops at an empty page even if it claims a next one, and reads a missing collection as empty', async () => {
    let calls = 0;
    const all = await listAllPages('volumes', async () => {
      calls += 1;
      return { volumes: [], volumes_links: [{ rel: 'next', href: '?marker=x' }] };
    });
    expect(all).toEqual([]);
    expect(calls).toBe(1);
    expect(await listAllPages('volumes', async () => ({}))).toEqual([]);
  });
});

describe('queryString', () => {
  it('leaves out undefined parameters, and is empty when none is left', () => {
    expect(queryString({ all_tenants: '1', host: undefined, limit: '10' })).toBe('?all_tenants=1&limit=10');
    expect(queryString({ host: undefined })).toBe('');
  });
});

/** A cloud answering at most `limit` (capped at `max`) items after `marker`, as Nova and Cinder do. */
function limitedCollection(ids: string[], max = 1000) {
  const asked: { limit: string; marker?: string }[] = [];
  const fetchPage = async (paging: { limit: string; marker?: string }) => {
    asked.push(paging);
    const start = paging.marker === undefined ? 0 : ids.indexOf(paging.marker) + 1;
    return { servers: ids.slice(start, start + Math.min(Number(paging.limit), max)).map((id) => ({ id })) };
  };
  return { asked, fetchPage };
}

const letters = (n: number) => Array.from({ length: n }, (_, i) => `s${String(i).padStart(3, '0')}`);

describe('onePage', () => {
  it('asks once for one more than the page, to know whether another follows', async () => {
    const { asked, fetchPage } = limitedCollection(letters(50));
    const page = await onePage('servers', fetchPage, { size: 20 });
    expect(page.items.map((s) => s.id)).toEqual(letters(20));
    expect(page.nextMarker).toBe('s019');
    expect(asked).toEqual([{ limit: '21' }]);
  });

  it('starts after the marker and says when it is the last page', async () => {
    const { asked, fetchPage } = limitedCollection(letters(50));
    const page = await onePage('servers', fetchPage, { size: 20, marker: 's039' });
    expect(page.items.map((s) => s.id)).toEqual(letters(50).slice(40));
    expect(page.nextMarker).toBeNull();
    expect(asked).toEqual([{ limit: '21', marker: 's039' }]);
  });

  it('is the last page when exactly the page is left', async () => {
    const { fetchPage } = limitedCollection(letters(40));
    const page = await onePage('servers', fetchPage, { size: 20, marker: 's019' });
    expect(page.items).toHaveLength(20);
    expect(page.nextMarker).toBeNull();
  });

  it('reads pages and filters them until the page is full, the next page starting after its last item', async () => {
    const { asked, fetchPage } = limitedCollection(letters(500));
    const keep = (s: { id: string }) => s.id.endsWith('7');
    const page = await onePage('servers', fetchPage, { size: 5, keep });
    expect(page.items.map((s) => s.id)).toEqual(['s007', 's017', 's027', 's037', 's047']);
    expect(page.nextMarker).toBe('s047');
    expect(asked).toEqual([{ limit: '100' }]);
    const sparse = await onePage('servers', fetchPage, { size: 5, keep: (s) => s.id >= 's440' && keep(s) });
    expect(sparse.items.map((s) => s.id)).toEqual(['s447', 's457', 's467', 's477', 's487']);
    expect(sparse.nextMarker).toBe('s487');
    expect(asked.slice(1).map((p) => p.marker)).toEqual([undefined, 's099', 's199', 's299', 's399']);
  });

  it('stops reading at the scan limit and goes on from the last item read', async () => {
    const { fetchPage } = limitedCollection(letters(500));
    const page = await onePage('servers', fetchPage, {
      size: 5,
      keep: (s) => s.id === 's450',
      scanLimit: 200,
    });
    expect(page.items).toEqual([]);
    expect(page.nextMarker).toBe('s199');
  });

  it("keeps the cloud's count", async () => {
    const fetchPage = async () => ({ volumes: [{ id: 'a' }], count: 41 });
    expect((await onePage('volumes', fetchPage, { size: 1 })).count).toBe(41);
  });
});

describe('markerAfter', () => {
  it('finds where a later page starts by reading only the ids before it', async () => {
    const { asked, fetchPage } = limitedCollection(letters(2500));
    expect(await markerAfter('servers', fetchPage, 0)).toEqual({ marker: undefined });
    expect(await markerAfter('servers', fetchPage, 40)).toEqual({ marker: 's039' });
    expect(asked).toEqual([{ limit: '40' }]);
    expect(await markerAfter('servers', fetchPage, 1500)).toEqual({ marker: 's1499' });
    expect(asked.slice(1)).toEqual([{ limit: '1000' }, { limit: '500', marker: 's999' }]);
  });

  it('is null past the end, with how many there are, and counts only kept items', async () => {
    const { fetchPage } = limitedCollection(letters(30));
    expect(await markerAfter('servers', fetchPage, 40)).toEqual({ marker: null, total: 30 });
    expect(await markerAfter('servers', fetchPage, 2, (s) => s.id.endsWith('5'))).toEqual({ marker: 's015' });
    expect(await markerAfter('servers', fetchPage, 5, (s) => s.id.endsWith('5'))).toEqual({
      marker: null,
      total: 3,
    });
  });
});
