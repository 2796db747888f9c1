import type { ReactNode } from 'react';
import {
  type LaunchCapacity,
  type LaunchPlan,
  type LaunchQuotaCheck,
  type LaunchRequest,
  launchPlanSchema,
  type Volume,
} from '@sv/shared';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ErrorMessage, errorText } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { ApiRequestError } from '../../../lib/api-client';
import { useLaunchPlan } from '../api/plan-launch';
import { useImages } from '../api/get-launch-catalog';
import {
  formatRam,
  type LaunchFormValues,
  STEPS,
  type StepId,
  stepOfField,
  useLaunchForm,
  volumeLabel,
  writerRisk,
} from './launch-form';
import { LaunchSummary } from './launch-summary';
import { WriterRiskNote } from './mode-choice';

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/** A plan line with the volume and image ids it names shown by name (the id stays in a tooltip). */
function withNames(line: string, names: ReadonlyMap<string, string>): ReactNode[] {
  return line.split(UUID).map((part, i) => {
    const name = i % 2 === 1 ? names.get(part) : undefined;
    return name ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
      <abbr key={i} title={part} className="font-semibold no-underline">
        {name}
      </abbr>
    ) : (
      part
    );
  });
}

/** Shared volumes this launch would give read-write to more than one server in all. */
function writerRisks(request: LaunchRequest, volumes: Volume[]) {
  const byId = new Map(volumes.map((v) => [v.id, v]));
  const picks = [
    ...(request.boot.source === 'volume' ? [{ ...request.boot, boot: true }] : []),
    ...request.dataVolumes.map((d) => ({ ...d, boot: false })),
  ];
  return picks.flatMap((p) => {
    const volume = byId.get(p.volumeId);
    const risk = volume ? writerRisk(volume, p.mode, request.count) : null;
    return volume && risk ? [{ volume, boot: p.boot, ...risk }] : [];
  });
}

/** The explicit acknowledgement the BFF asks for before several servers write to one volume. */
function AcknowledgeWriters() {
  const { register } = useLaunchForm();
  const id = 'launch-acknowledge-writers';
  return (
    <div className="flex items-start gap-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <input
        id={id}
        type="checkbox"
        {...register('acknowledgeMultipleWriters')}
        className="mt-0.5 h-4 w-4 accent-amber-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      />
      <label htmlFor={id} className="font-medium">
        The servers use a cluster file system; give them read-write anyway
      </label>
    </div>
  );
}

const stepTitle = (id: StepId) => STEPS.find((s) => s.id === id)?.title ?? id;

/** A problem and a way to the step that fixes it. */
function ProblemList({
  problems,
  onEdit,
}: {
  problems: { field: string; message: string }[];
  onEdit: (step: StepId) => void;
}) {
  return (
    <ul className="mt-1 space-y-1">
      {problems.map((p) => {
        const step = stepOfField(p.field);
        return (
          <li key={`${p.field}:${p.message}`} className="flex flex-wrap items-baseline gap-x-2">
            <span>{p.message}</span>
            {step !== 'review' && (
              <button
                type="button"
                onClick={() => onEdit(step)}
                className="font-medium text-red-900 underline focus-visible:outline-2 focus-visible:outline-red-700"
              >
                Fix in {stepTitle(step)}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Step 6: the launch as chosen, the cloud's pre-flight verdict on it, and exactly which requests
 * it will send. Launching is only possible when the pre-flight found nothing in the way.
 */
export function ReviewStep({
  values,
  request,
  formProblems,
  volumes,
  onEdit,
  submitting,
  submitError,
  onBack,
  readOnlyAvailable,
}: {
  values: LaunchFormValues;
  /** The request as the shared schema parses it; null while the form is still invalid. */
  request: LaunchRequest | null;
  formProblems: { field: string; message: string }[];
  volumes: Volume[];
  onEdit: (step: StepId) => void;
  submitting: boolean;
  submitError: unknown;
  onBack: () => void;
  readOnlyAvailable: boolean;
}) {
  const plan = useLaunchPlan(formProblems.length === 0 ? request : null);
  const images = useImages();
  const names = new Map<string, string>([
    ...volumes.map((v) => [v.id, volumeLabel(v)] as const),
    ...(images.data?.images ?? []).map((i) => [i.id, i.name || i.id] as const),
  ]);
  const risks = request ? writerRisks(request, volumes) : [];
  const ready = formProblems.length === 0 && request !== null && plan.data?.ok === true && !plan.isFetching;
  const count = request?.count ?? 1;
  const blockedId = 'launch-blocked-reason';
  const form = useLaunchForm();
  // The count that fits, taken as the new count: the plan is asked again for it.
  const launchInstead = (n: number) =>
    form.setValue('count', n, { shouldDirty: true, shouldTouch: true, shouldValidate: true });

  return (
    <div className="space-y-5">
      <LaunchSummary values={values} volumes={volumes} onEdit={onEdit} headingLevel={3} />

      {risks.map((r) => (
        <WriterRiskNote
          key={r.volume.id}
          volumeName={volumeLabel(r.volume)}
          newWriters={r.newWriters}
          existing={r.existing}
          boot={r.boot}
          readOnlyAvailable={readOnlyAvailable}
        />
      ))}
      {risks.length > 0 && <AcknowledgeWriters />}

      {formProblems.length > 0 && (
        <div role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">Some choices need fixing before the launch can be checked</p>
          <ProblemList problems={formProblems} onEdit={onEdit} />
        </div>
      )}

      {formProblems.length === 0 && (
        <section
          aria-labelledby="preflight-title"
          aria-busy={plan.isFetching || undefined}
          className="space-y-3"
        >
          <h3 id="preflight-title" className="text-base font-semibold text-slate-900">
            Pre-flight check
          </h3>
          {plan.isPending && <Loading label="Asking the cloud whether this launch can run…" />}
          {plan.isError && (
            <ErrorMessage
              title="The launch could not be checked"
              error={plan.error}
              onRetry={() => plan.refetch()}
            />
          )}
          {plan.data && (
            <PlanView
              plan={plan.data}
              count={count}
              onEdit={onEdit}
              names={names}
              onLaunchInstead={launchInstead}
              replanning={plan.isFetching}
            />
          )}
        </section>
      )}

      {submitError !== null && submitError !== undefined && (
        <SubmitError error={submitError} onEdit={onEdit} />
      )}

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-4">
        <Button onClick={onBack}>Back</Button>
        {!ready && !submitting && (
          <p id={blockedId} className="ml-auto text-sm text-slate-700">
            {formProblems.length > 0
              ? 'Fix the choices above to launch.'
              : plan.data && !plan.data.ok
                ? 'Launching is blocked until the problems above are solved.'
                : plan.isError
                  ? 'The launch must pass the pre-flight check first.'
                  : 'Waiting for the pre-flight check…'}
          </p>
        )}
        <Button
          className={ready || submitting ? 'ml-auto' : ''}
          type="submit"
          variant="primary"
          loading={submitting}
          disabled={!ready}
          aria-describedby={ready ? undefined : blockedId}
        >
          {count === 1 ? 'Launch 1 server' : `Launch ${count} servers`}
        </Button>
      </div>
    </div>
  );
}

function PlanView({
  plan,
  count,
  onEdit,
  names,
  onLaunchInstead,
  replanning,
}: {
  plan: LaunchPlan;
  count: number;
  onEdit: (step: StepId) => void;
  names: ReadonlyMap<string, string>;
  onLaunchInstead: (count: number) => void;
  replanning: boolean;
}) {
  const multi = plan.strategy === 'multi-create';
  const creates = count === 1 ? '1 create' : `${count} creates`;
  const attaches = plan.requests.some((r) => r.includes('os-volume_attachments'));
  return (
    <>
      {plan.ok ? (
        <p role="status" className="rounded border border-green-300 bg-green-50 p-3 text-sm text-green-900">
          <span className="font-semibold">Ready to launch.</span>{' '}
          {plan.capacity?.source === 'unchecked'
            ? 'Nothing the dashboard could check is in the way; whether every server finds a host is known only when the cloud creates them.'
            : 'The cloud found nothing in the way.'}
        </p>
      ) : (
        <div role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <p className="font-semibold">
            {plan.problems.length === 1 ? 'One problem stops' : `${plan.problems.length} problems stop`} this
            launch
          </p>
          <ProblemList problems={plan.problems} onEdit={onEdit} />
          {plan.maxCount !== null && plan.maxCount > 0 && plan.maxCount < count && (
            // The problem above says how many fit; this takes that count.
            <div className="mt-3">
              <Button size="sm" loading={replanning} onClick={() => onLaunchInstead(plan.maxCount ?? count)}>
                Launch {plan.maxCount} instead
              </Button>
            </div>
          )}
        </div>
      )}
      {plan.warnings.length > 0 && (
        <div role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          <p className="font-semibold">Worth knowing before you launch</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {plan.warnings.map((w) => (
              <li key={`${w.field}:${w.message}`}>{w.message}</li>
            ))}
          </ul>
        </div>
      )}
      {plan.quotas.length > 0 && <QuotaChecks checks={plan.quotas} />}
      {plan.capacity && (
        <CapacityView
          capacity={plan.capacity}
          // An unchecked capacity's note is often the plan's warning too: said once.
          showNote={
            plan.capacity.fits === null && !plan.warnings.some((w) => w.message === plan.capacity?.note)
          }
        />
      )}
      <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
          {multi
            ? `One request for all ${count === 1 ? 'servers' : `${count} servers`}`
            : attaches
              ? `${creates}, then ${count === 1 ? 'the attaches' : 'attaches to each server in turn'}`
              : `${creates}, one at a time`}
          <Badge tone={multi ? 'green' : 'blue'}>{multi ? 'multi-create' : 'serial'}</Badge>
        </p>
        {/* The API's words (microversions, min_count) stay in here, for those who want them. */}
        <details className="mt-2">
          <summary className="cursor-pointer text-blue-800 hover:underline">
            Details: how the dashboard asks the cloud
          </summary>
          <p className="mt-2 text-slate-700">{plan.strategyReason}</p>
          <p className="mt-3 font-medium text-slate-800">What the dashboard will send, in order</p>
          <ol className="mt-1 list-decimal space-y-1 pl-5 font-mono text-xs text-slate-800">
            {plan.requests.map((r) => (
              <li key={r} className="break-words">
                {withNames(r, names)}
              </li>
            ))}
          </ol>
        </details>
      </div>
    </>
  );
}

/** RAM is shown in MB or GB (formatRam), so its label loses the cloud's unit. */
const quotaLabel = (c: { resource: string; label: string }) => (c.resource === 'ram' ? 'RAM' : c.label);

const quotaAmount = (c: LaunchQuotaCheck, n: number) => (c.resource === 'ram' ? formatRam(n) : String(n));

/** Each quota the launch uses: what it takes, what is left, and whether it fits. */
function QuotaChecks({ checks }: { checks: LaunchQuotaCheck[] }) {
  return (
    <section
      aria-labelledby="plan-quotas-title"
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
    >
      <h4 id="plan-quotas-title" className="font-semibold text-slate-900">
        Quotas
      </h4>
      <ul className="mt-1 space-y-1">
        {checks.map((c) => {
          const over = c.left !== null && c.need > c.left;
          return (
            <li key={c.resource} className="flex flex-wrap items-baseline gap-x-2">
              <span className="font-medium text-slate-800">{quotaLabel(c)}:</span>
              <span>
                this launch uses {quotaAmount(c, c.need)},{' '}
                {c.left === null ? 'no limit' : `${quotaAmount(c, Math.max(0, c.left))} left`}
              </span>
              <Badge tone={over ? 'red' : 'green'}>
                {over ? `over by ${quotaAmount(c, c.need - (c.left ?? 0))}` : 'fits'}
              </Badge>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Where the capacity figure comes from, in words. */
export const capacitySource: Record<LaunchCapacity['source'], string> = {
  'dry-run': "Checked with the cloud's scheduler",
  placement: "From the hosts' figures (placement)",
  hypervisors: "From the hosts' figures",
  unchecked: 'Cannot be checked in advance for a member on this cloud',
};

/** Whether the cloud will place every server: how many fit, per zone, and how that was found. */
function CapacityView({ capacity: c, showNote }: { capacity: LaunchCapacity; showNote: boolean }) {
  const servers = (n: number) => (n === 1 ? '1 server' : `${n} servers`);
  return (
    <section
      aria-labelledby="plan-capacity-title"
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
    >
      <h4 id="plan-capacity-title" className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
        Capacity
        {c.fits !== null && (
          <Badge tone={c.fits >= c.requested ? 'green' : 'red'}>
            {c.fits >= c.requested ? `all ${c.requested} fit` : `${c.fits} of ${c.requested} fit`}
          </Badge>
        )}
      </h4>
      <p className="mt-1 text-slate-800">
        {capacitySource[c.source]}
        {c.fits === null
          ? '.'
          : c.fits >= c.requested
            ? `: the cloud can place all ${servers(c.requested)} now.`
            : `: only ${servers(c.fits)} of the ${c.requested} fit now.`}
      </p>
      {c.zones.length > 0 && (
        <ul className="mt-1 text-slate-700">
          {c.zones.map((z) => (
            <li key={z.zone}>
              Zone {z.zone}: {servers(z.fits)} fit
            </li>
          ))}
        </ul>
      )}
      {showNote && c.note && <p className="mt-1 text-slate-600">{c.note}</p>}
    </section>
  );
}

/** The BFF refused the launch: its problems when it names them, else its message. */
function SubmitError({ error, onEdit }: { error: unknown; onEdit: (step: StepId) => void }) {
  let problems: { field: string; message: string }[] = [];
  if (error instanceof ApiRequestError) {
    const named = launchPlanSchema.shape.problems.safeParse(error.details?.problems);
    problems = named.success
      ? named.data
      : Object.entries(error.fields).map(([field, message]) => ({ field, message: String(message) }));
  }
  if (problems.length > 0) {
    return (
      <div role="alert" className="rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        <p className="font-semibold">The launch was refused: {errorText(error)}</p>
        <ProblemList problems={problems} onEdit={onEdit} />
      </div>
    );
  }
  return <ErrorMessage title="The launch could not start" error={error} />;
}
