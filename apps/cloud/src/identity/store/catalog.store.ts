import type { Schema } from '../../platform/db/schema.js';
import type { Db } from './db.js';

export type RegionRow = Schema['catalog_regions'];
export type ServiceRow = Schema['catalog_services'];
export type EndpointRow = Schema['catalog_endpoints'];

/** SQL for the regions, services and endpoints admins manage. */
export const catalogStore = {
  regions: (db: Db) => db.selectFrom('catalog_regions').selectAll().orderBy('id').execute(),
  regionById: (db: Db, id: string) =>
    db.selectFrom('catalog_regions').selectAll().where('id', '=', id).executeTakeFirst(),
  insertRegion: (db: Db, row: RegionRow) => db.insertInto('catalog_regions').values(row).execute(),
  updateRegion: (db: Db, id: string, patch: Partial<Omit<RegionRow, 'id'>>) =>
    db.updateTable('catalog_regions').set(patch).where('id', '=', id).execute(),
  deleteRegions: (db: Db, ids: string[]) =>
    ids.length === 0 ? Promise.resolve() : db.deleteFrom('catalog_regions').where('id', 'in', ids).execute(),

  services: (db: Db) => db.selectFrom('catalog_services').selectAll().orderBy('id').execute(),
  serviceById: (db: Db, id: string) =>
    db.selectFrom('catalog_services').selectAll().where('id', '=', id).executeTakeFirst(),
  insertService: (db: Db, row: ServiceRow) => db.insertInto('catalog_services').values(row).execute(),
  updateService: (db: Db, id: string, patch: Partial<Omit<ServiceRow, 'id'>>) =>
    db.updateTable('catalog_services').set(patch).where('id', '=', id).execute(),
  async deleteService(db: Db, id: string): Promise<void> {
    await db.deleteFrom('catalog_endpoints').where('service_id', '=', id).execute();
    await db.deleteFrom('catalog_services').where('id', '=', id).execute();
  },

  endpoints: (db: Db) => db.selectFrom('catalog_endpoints').selectAll().orderBy('id').execute(),
  endpointById: (db: Db, id: string) =>
    db.selectFrom('catalog_endpoints').selectAll().where('id', '=', id).executeTakeFirst(),
  insertEndpoint: (db: Db, row: EndpointRow) => db.insertInto('catalog_endpoints').values(row).execute(),
  updateEndpoint: (db: Db, id: string, patch: Partial<Omit<EndpointRow, 'id'>>) =>
    db.updateTable('catalog_endpoints').set(patch).where('id', '=', id).execute(),
  deleteEndpoint: (db: Db, id: string) => db.deleteFrom('catalog_endpoints').where('id', '=', id).execute(),
};
