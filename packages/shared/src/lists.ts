import { z } from 'zod';
import { projectRefSchema } from './session.js';
import { serverSchema } from './servers.js';
import { volumeSchema } from './volumes.js';

/**
 * The paged servers and volumes lists: one page at a time, asked of the cloud with OpenStack's
 * `limit`/`marker`, `sort_key`/`sort_dir` and filters. The query is what the web app keeps in its
 * URL, so a view can be shared and survives a reload.
 */

export const LIST_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;

const yesNo = (what: string) => z.enum(['yes', 'no'], { message: `${what} must be yes or no` }).optional();

const listQueryBase = z.object({
  /** A name (part of one, any case) or a whole id. */
  q: z.string().trim().max(255, 'Search for at most 255 characters').optional(),
  status: z
    .string()
    .trim()
    .regex(/^[A-Za-z_-]{1,32}$/, 'Choose a status from the list')
    .optional(),
  zone: z.string().trim().min(1).max(255, 'A zone name has at most 255 characters').optional(),
  /** Admins: one project (implies looking beyond their own). */
  project: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z_-]{1,64}$/, 'Choose a project from the list')
    .optional(),
  /** Admins: every project. */
  all: z
    .enum(['0', '1', 'true', 'false'], { message: 'all must be 1 or 0' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
  dir: z.enum(['asc', 'desc'], { message: 'Sort direction must be asc or desc' }).default('asc'),
  limit: z.coerce
    .number({ message: 'Page size must be a number' })
    .int('Page size must be a whole number')
    .min(1, 'Page size must be between 1 and 100')
    .max(100, 'Page size must be between 1 and 100')
    .default(DEFAULT_PAGE_SIZE),
  /** 1-based. Without a marker, the pages before it are skipped on the cloud. */
  page: z.coerce
    .number({ message: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page must be 1 or more')
    .max(100_000, 'Page must be at most 100000')
    .default(1),
  /** The id of the last item of the page before: where the cloud starts this one. */
  marker: z
    .string()
    .trim()
    .regex(/^[0-9A-Za-z-]{1,64}$/, 'The page marker is not an id')
    .optional(),
});

export const serverSortKeys = ['name', 'status', 'created'] as const;
export const serverListQuerySchema = listQueryBase.extend({
  sort: z.enum(serverSortKeys, { message: 'Sort by name, status or created' }).default('created'),
  /** Servers with at least one volume attached (yes) or none (no). */
  attached: yesNo('attached'),
});
export type ServerListQuery = z.infer<typeof serverListQuerySchema>;
export type ServerListQueryInput = z.input<typeof serverListQuerySchema>;

export const volumeSortKeys = ['name', 'status', 'size', 'created'] as const;
export const volumeListQuerySchema = listQueryBase.extend({
  sort: z.enum(volumeSortKeys, { message: 'Sort by name, status, size or created' }).default('created'),
  /** Shared (multiattach) volumes (yes) or not (no). */
  shared: yesNo('shared'),
  /** Volumes held by at least one server (yes) or by none (no). */
  attached: yesNo('attached'),
});
export type VolumeListQuery = z.infer<typeof volumeListQuerySchema>;
export type VolumeListQueryInput = z.input<typeof volumeListQuerySchema>;

/** Where this page sits in the whole list. */
export const listPageSchema = z.object({
  number: z.number().int().min(1),
  size: z.number().int().min(1),
  /** Pass as `marker` (with `page` + 1) for the next page; null on the last page. */
  nextMarker: z.string().nullable(),
  /** The exact number of matches when known: the cloud counted them, or this is the last page. */
  total: z.number().int().min(0).nullable(),
  /** Matches known so far (this page's end, plus one when more follow): shown as "N+" without a total. */
  atLeast: z.number().int().min(0),
});
export type ListPage = z.infer<typeof listPageSchema>;

export const serverPageSchema = z.object({ servers: z.array(serverSchema), page: listPageSchema });
export type ServerPage = z.infer<typeof serverPageSchema>;
export const volumePageSchema = z.object({ volumes: z.array(volumeSchema), page: listPageSchema });
export type VolumePage = z.infer<typeof volumePageSchema>;

/** Project names the user may see: an admin's are every project's (when Keystone lists them). */
export const projectListSchema = z.object({ projects: z.array(projectRefSchema) });
export type ProjectList = z.infer<typeof projectListSchema>;
