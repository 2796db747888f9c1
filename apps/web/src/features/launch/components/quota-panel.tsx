import type { QuotaResource, QuotaUsage } from '@sv/shared';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { useQuotaUsage } from '../api/get-launch-choices';
import { formatRam } from './launch-form';

/** What one server of a flavor takes. */
type FlavorSize = { vcpus: number; ramMb: number };

/** What a launch of `count` servers of `flavor` takes from each compute quota (volumes: none new). */
export function launchUses(count: number, flavor: FlavorSize | undefined) {
  const n = Number.isFinite(count) && count > 0 ? count : 0;
  const uses: Partial<Record<QuotaResource, number>> = { instances: n };
  if (flavor) {
    uses.cores = n * flavor.vcpus;
    uses.ram = n * flavor.ramMb;
  }
  return uses;
}

const amount = (resource: QuotaResource, n: number) => (resource === 'ram' ? formatRam(n) : String(n));

/** The instances the project has left, or null when unlimited or unknown. */
export function instancesLeft(quotas: QuotaUsage[] | undefined): { used: number; limit: number } | null {
  const q = quotas?.find((x) => x.resource === 'instances');
  return q && q.limit !== null ? { used: q.used, limit: q.limit } : null;
}

/**
 * The project's use and limits (instances, vCPUs, RAM, volumes, volume storage) as bars, with what
 * this launch adds. Services whose figures cannot be read are said in words; the rest stands.
 */
export function QuotaPanel({ count, flavor }: { count: number; flavor: FlavorSize | undefined }) {
  const usage = useQuotaUsage();
  if (usage.isPending) return <Loading label="Loading the project's quotas…" />;
  if (usage.isError)
    return (
      <ErrorMessage
        title="The project's quotas could not be loaded"
        error={usage.error}
        onRetry={() => usage.refetch()}
      />
    );
  const uses = launchUses(count, flavor);
  const { quotas, unavailable } = usage.data;

  return (
    <section
      aria-labelledby="quota-title"
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm"
    >
      <h3 id="quota-title" className="font-semibold text-slate-900">
        Project quota
      </h3>
      <ul className="mt-2 space-y-2">
        {quotas.map((q) => {
          const adds = uses[q.resource] ?? 0;
          const after = q.used + adds;
          const over = q.limit !== null && after > q.limit;
          const pct = (n: number) => (q.limit ? Math.min(100, (n / q.limit) * 100) : 0);
          return (
            <li key={q.resource} className="grid gap-1">
              <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-medium text-slate-800">{q.resource === 'ram' ? 'RAM' : q.label}</span>
                <span className="tabular-nums text-slate-700">
                  {q.limit === null
                    ? `${amount(q.resource, q.used)} used, no limit`
                    : `${amount(q.resource, q.used)} of ${amount(q.resource, q.limit)} used`}
                  {adds > 0 && (
                    <span className={over ? 'font-semibold text-red-700' : 'text-blue-800'}>
                      {' '}
                      · this launch uses {amount(q.resource, adds)}
                      {over ? `, ${amount(q.resource, after - (q.limit ?? 0))} over` : ''}
                    </span>
                  )}
                </span>
              </div>
              {q.limit !== null && (
                <div aria-hidden="true" className="relative h-2 overflow-hidden rounded bg-slate-200">
                  <div
                    className="absolute inset-y-0 left-0 bg-slate-600"
                    style={{ width: `${pct(q.used)}%` }}
                  />
                  {adds > 0 && (
                    <div
                      className={`absolute inset-y-0 ${over ? 'bg-red-600' : 'bg-blue-600'}`}
                      style={{ left: `${pct(q.used)}%`, width: `${pct(after) - pct(q.used)}%` }}
                    />
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      {unavailable.map((u) => (
        <p key={u.service} className="mt-2 text-slate-700">
          The {u.service === 'compute' ? 'compute' : 'volume'} quotas could not be read: {u.reason}
        </p>
      ))}
    </section>
  );
}
