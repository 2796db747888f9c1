/** Keystone's `links` on a collection: `self` is the URL as requested, query string included. */
export function collectionLinks(selfUrl: string) {
  return { next: null, self: selfUrl, previous: null };
}

export const v3Url = (base: string, path: string) => `${base}/identity/v3/${path}`;
