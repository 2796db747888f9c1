import { type JsonSchema, requestSchema, validateBody } from './validation.js';

/**
 * The body of our `os-scheduler-dry-run` extension (docs/cloud-extensions.md): the parts of a
 * server create the scheduler looks at. `flavorRef` and `availability_zone` take the values
 * server create takes (`schemas/servers.py`); the flags are plain JSON booleans, since no older
 * client sends oslo's boolean strings to an API that never existed in Nova.
 */

/** The most servers one dry run asks about (Nova's `[api] max_limit`, a page of servers). */
export const DRY_RUN_MAX_COUNT = 1000;

interface DryRunBody {
  dry_run: {
    flavorRef: string | number;
    count: number;
    availability_zone?: string;
    volume_backed?: boolean;
    multiattach?: boolean;
    read_only?: boolean;
  };
}

const flag: JsonSchema = { type: 'boolean' };

const dryRunSchema = requestSchema<DryRunBody>({
  type: 'object',
  properties: {
    dry_run: {
      type: 'object',
      properties: {
        flavorRef: { type: ['string', 'integer'], minLength: 1 },
        count: { type: 'integer', minimum: 1, maximum: DRY_RUN_MAX_COUNT },
        availability_zone: { type: 'string', minLength: 1, maxLength: 255, format: 'name' },
        volume_backed: flag,
        multiattach: flag,
        read_only: flag,
      },
      required: ['flavorRef', 'count'],
      additionalProperties: false,
    },
  },
  required: ['dry_run'],
  additionalProperties: false,
});

/** What a dry run asks, read from a valid body. */
export interface DryRunRequest {
  flavorRef: string;
  count: number;
  /** As given: `zone`, or `zone:host[:node]` (admins only, as at server create). */
  availabilityZone: string | null;
  volumeBacked: boolean;
  multiattach: boolean;
  readOnly: boolean;
}

export function parseDryRun(body: unknown): DryRunRequest {
  const { dry_run: d } = validateBody(dryRunSchema, body);
  return {
    flavorRef: String(d.flavorRef),
    count: d.count,
    availabilityZone: d.availability_zone ?? null,
    volumeBacked: d.volume_backed ?? false,
    multiattach: d.multiattach ?? false,
    readOnly: d.read_only ?? false,
  };
}
