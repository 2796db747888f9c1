import type { RequestHandler } from 'express';
import { badRequest, OpenStackError, WEBOB_BAD_REQUEST } from './errors.js';

export class Microversion {
  constructor(
    readonly major: number,
    readonly minor: number,
  ) {}

  static parse(text: string): Microversion | null {
    const m = /^([1-9]\d*)\.([1-9]\d*|0)$/.exec(text);
    return m ? new Microversion(Number(m[1]), Number(m[2])) : null;
  }

  /** For literals in code: `Microversion.of('2.60')`. */
  static of(text: string): Microversion {
    const v = Microversion.parse(text);
    if (!v) throw new Error(`bad microversion literal ${text}`);
    return v;
  }

  compare(other: Microversion): number {
    return this.major - other.major || this.minor - other.minor;
  }

  atLeast(text: string): boolean {
    return this.compare(Microversion.of(text)) >= 0;
  }

  below(text: string): boolean {
    return !this.atLeast(text);
  }

  toString(): string {
    return `${this.major}.${this.minor}`;
  }
}

export interface MicroversionPolicy {
  /** The service name in `OpenStack-API-Version: <service> X.Y`. */
  service: 'compute' | 'volume';
  min: Microversion;
  max: Microversion;
  /** Nova also reads, and always echoes, `X-OpenStack-Nova-API-Version`. */
  legacyHeader?: string;
}

/** The last `<service> X.Y` entry of an OpenStack-API-Version header, or null when there is none. */
function entryFor(header: string | undefined, service: string): string | null {
  if (!header) return null;
  const entries = header
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (let i = entries.length - 1; i >= 0; i--) {
    const [name, ...rest] = entries[i]!.split(/\s+/);
    if (name?.toLowerCase() === service) return rest.join(' ');
  }
  return null;
}

/**
 * Reads the requested microversion into req.ctx.version and echoes it on every response,
 * faults included, as Nova (`Resource.__call__`) and Cinder (`set_api_version_request`) do.
 */
export function negotiateMicroversion(policy: MicroversionPolicy): RequestHandler {
  const vary = policy.legacyHeader
    ? `OpenStack-API-Version, ${policy.legacyHeader}`
    : 'OpenStack-API-Version';
  return (req, res, next) => {
    const header = req.get('OpenStack-API-Version');
    let requested = entryFor(header, policy.service);
    if (requested === null && policy.legacyHeader) {
      const legacy = req.get(policy.legacyHeader);
      if (legacy)
        requested =
          legacy
            .split(',')
            .map((s) => s.trim())
            .at(-1) ?? null;
    }
    if (requested === null && header && policy.service === 'volume') {
      // Cinder: a header with no volume entry fails before dispatch with webob's text.
      throw badRequest(WEBOB_BAD_REQUEST);
    }
    let version: Microversion;
    if (requested === null) {
      version = policy.min;
    } else if (requested.toLowerCase() === 'latest') {
      version = policy.max;
    } else {
      const parsed = Microversion.parse(requested);
      if (!parsed) {
        throw badRequest(
          `API Version String ${requested} is of invalid format. Must be of format MajorNum.MinorNum.`,
        );
      }
      version = parsed;
    }
    res.setHeader('OpenStack-API-Version', `${policy.service} ${version}`);
    if (policy.legacyHeader) res.setHeader(policy.legacyHeader, version.toString());
    res.setHeader('Vary', vary);
    if (version.compare(policy.min) < 0 || version.compare(policy.max) > 0) {
      throw new OpenStackError(
        406,
        `Version ${version} is not supported by the API. Minimum is ${policy.min} and maximum is ${policy.max}.`,
      );
    }
    req.ctx.version = version;
    next();
  };
}

/** A route that exists only from a microversion on answers webob's 404 below it. */
export function versionOf(ctx: { version?: Microversion }): Microversion {
  if (!ctx.version) throw new Error('route used without microversion negotiation');
  return ctx.version;
}
