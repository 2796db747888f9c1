import { describe, expect, it } from 'vitest';
import { listAllPages, queryString } from './paging.js';

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
