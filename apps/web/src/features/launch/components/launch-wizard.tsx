import { ApiErrorCode, type LaunchRequest, launchRequestSchema, type Session, type Volume } from '@sv/shared';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { type FieldErrors, FormProvider, get, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ApiRequestError } from '../../../lib/api-client';
import { useProjectVolumes } from '../api/get-launch-catalog';
import { useQuotaUsage } from '../api/get-launch-choices';
import { launchPlanKeys } from '../api/plan-launch';
import { useStartLaunch } from '../api/start-launch';
import { BootStep } from './boot-step';
import { DataVolumesStep } from './data-volumes-step';
import { DetailsStep } from './details-step';
import { FlavorStep } from './flavor-step';
import { KeyPairStep, type NewKeyPair } from './key-pair-step';
import { useLaunchDefaults } from './launch-defaults';
import {
  defaultLaunchValues,
  type KeyChoice,
  type LaunchFormContext,
  type LaunchFormValues,
  launchResolver,
  STEPS,
  type StepId,
} from './launch-form';
import { LaunchSummary } from './launch-summary';
import { NetworksStep } from './networks-step';
import { instancesLeft } from './quota-panel';
import { ReviewStep } from './review-step';
import { SecurityGroupsStep } from './security-groups-step';
import { WizardStepper } from './wizard-stepper';
import { ZoneStep } from './zone-step';

const NO_VOLUMES: Volume[] = [];
const REVIEW = STEPS.length - 1;

const descriptions: Record<StepId, string> = {
  details: 'Name the servers and choose how many to launch.',
  flavor: 'Choose the size of every server.',
  boot: 'Boot from an image, or from a bootable volume: a shared one lets every server boot from the same disk.',
  data: 'Give every server the same existing volumes, each read-only or read-write.',
  zone: 'Choose where the servers run.',
  networks: 'Choose the networks every server gets a port on.',
  securityGroups: 'Choose the security groups whose rules let traffic in and out of the servers.',
  keyPair: 'Choose the SSH key pair put into every server, so you can log in.',
  review: 'Check what will happen before anything is created.',
};

/** Every error in the form as (dotted field, message), for the review step's list. */
function flattenErrors(errors: FieldErrors<LaunchFormValues>): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== 'object') return;
    if ('message' in node && typeof node.message === 'string' && node.message) {
      out.push({ field: path, message: node.message });
    }
    for (const [key, child] of Object.entries(node)) {
      // `ref` is the DOM element, `types` the same messages again.
      if (key === 'ref' || key === 'types' || key === 'message' || key === 'type') continue;
      walk(child, path ? `${path}.${key}` : key);
    }
  };
  walk(errors, '');
  return out;
}

/**
 * Launch one or many servers: Details → Flavor → Boot source → Data volumes → Availability
 * zone → Review. Each step validates as you type against the shared launchRequestSchema
 * (plus the rules only the volume list can tell), and you cannot move on past an error.
 */
export function LaunchWizard({ session }: { session: Session }) {
  const caps = session.capabilities;
  const volumesQuery = useProjectVolumes();
  const volumes = volumesQuery.data?.volumes ?? NO_VOLUMES;
  const quotas = useQuotaUsage().data?.quotas;
  const instances = useMemo(() => instancesLeft(quotas), [quotas]);
  const [keyChoice, setKeyChoice] = useState<KeyChoice | null>(null);
  // The private key of a pair made here, until the user says it is saved (then it is dropped).
  const [newKey, setNewKey] = useState<NewKeyPair | null>(null);
  const context = useMemo<LaunchFormContext>(
    () => ({
      volumes,
      readOnlyAttach: caps.readOnlyAttach,
      instances,
      keyChoice,
      unsavedPrivateKey: newKey?.name ?? null,
    }),
    [volumes, caps.readOnlyAttach, instances, keyChoice, newKey],
  );
  const form = useForm<LaunchFormValues, LaunchFormContext, LaunchRequest>({
    resolver: launchResolver,
    context,
    mode: 'onChange',
    defaultValues: defaultLaunchValues,
  });
  const values = form.watch();
  const { errors } = form.formState;

  const [current, setCurrent] = useState(0);
  const [reached, setReached] = useState(0);
  // What to focus after the next render; a new object each time, so a failed move re-runs it too.
  const [focusRequest, setFocusRequest] = useState<{ target: 'heading' | 'invalid' } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const start = useStartLaunch();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const step = STEPS[current] ?? STEPS[0]!;
  useLaunchDefaults(form, setKeyChoice);

  // The key pair's rule reads the wizard's state, not a field: check it again when that changes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run on the state the resolver reads
  useEffect(() => {
    // Only to update a message already shown: a new rule is said when the user tries to move on.
    if (form.getFieldState('keyName').error) void form.trigger('keyName');
  }, [keyChoice, newKey, form]);

  // Move focus once the step is on screen: its heading (so screen readers announce the step), or
  // the first field in error when a move was refused.
  useEffect(() => {
    if (!focusRequest) return;
    if (focusRequest.target === 'invalid') {
      const bad = panelRef.current?.querySelector<HTMLElement>(
        'input[aria-invalid="true"], select[aria-invalid="true"]',
      );
      if (bad) return void bad.focus();
    }
    headingRef.current?.focus();
  }, [focusRequest]);

  const show = (index: number, focus: 'heading' | 'invalid' = 'heading') => {
    const target = STEPS[index];
    if (!target) return;
    // Coming back to a step already passed: show what changed since (e.g. a new count).
    if (index < reached && target.fields.length > 0) void form.trigger(target.fields);
    if (target.id === 'review') void form.trigger();
    if (index !== current) start.reset();
    setFocusRequest({ target: focus });
    setCurrent(index);
    setReached((r) => Math.max(r, index));
  };

  /** Forward only through valid steps: stops at the first one with an error. */
  const goTo = async (index: number) => {
    if (index <= current) return show(index);
    for (let i = current; i < index; i++) {
      const fields = STEPS[i]?.fields ?? [];
      if (fields.length > 0 && !(await form.trigger(fields))) return show(i, 'invalid');
    }
    show(index);
  };
  const goToStep = (id: StepId) => void goTo(STEPS.findIndex((s) => s.id === id));

  const launch = form.handleSubmit((request) =>
    start.mutate(request, {
      onSuccess: (l) => navigate(`/launches/${encodeURIComponent(l.id)}`),
      onError: (err) => {
        // The cloud changed since the check: ask again so the review shows today's problems.
        if (err instanceof ApiRequestError && err.code === ApiErrorCode.launch_not_possible) {
          void qc.invalidateQueries({ queryKey: launchPlanKeys.all });
        }
      },
    }),
  );
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    // Enter in a field means "next" until the review; only the review launches.
    if (current !== REVIEW) {
      e.preventDefault();
      void goTo(current + 1);
      return;
    }
    void launch(e);
  };

  const withErrors = new Set(STEPS.flatMap((s, i) => (s.fields.some((f) => get(errors, f)) ? [i] : [])));
  const formProblems = flattenErrors(errors);
  const parsed = launchRequestSchema.safeParse(values);
  const request = parsed.success ? parsed.data : null;

  return (
    <div>
      <div className="mb-5">
        <h1 className="text-2xl font-semibold text-slate-900">Launch servers</h1>
        <p className="mt-1 text-sm text-slate-700">
          One server or many, from an image or a bootable volume, sharing volumes read-only or read-write.
        </p>
      </div>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[12rem_minmax(0,1fr)] xl:grid-cols-[12rem_minmax(0,1fr)_18rem]">
        <WizardStepper
          current={current}
          reached={reached}
          withErrors={withErrors}
          onGo={(i) => void goTo(i)}
        />
        <FormProvider {...form}>
          <form
            onSubmit={onSubmit}
            noValidate
            aria-labelledby="launch-step-title"
            className={`min-w-0 ${current === REVIEW ? 'xl:col-span-2' : ''}`}
          >
            <div ref={panelRef} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
              <h2
                id="launch-step-title"
                ref={headingRef}
                tabIndex={-1}
                className="text-lg font-semibold text-slate-900 focus:outline-none"
              >
                <span className="text-slate-600">
                  Step {current + 1} of {STEPS.length}:{' '}
                </span>
                {step.title}
              </h2>
              <p className="mb-5 text-sm text-slate-700">{descriptions[step.id]}</p>

              {step.id === 'details' && <DetailsStep capabilities={caps} volumes={volumes} />}
              {step.id === 'flavor' && <FlavorStep />}
              {step.id === 'boot' && <BootStep readOnlyAttach={caps.readOnlyAttach} />}
              {step.id === 'data' && <DataVolumesStep readOnlyAttach={caps.readOnlyAttach} />}
              {step.id === 'zone' && <ZoneStep volumes={volumes} />}
              {step.id === 'networks' && <NetworksStep />}
              {step.id === 'securityGroups' && <SecurityGroupsStep />}
              {step.id === 'keyPair' && (
                <KeyPairStep
                  choice={keyChoice}
                  onChoice={setKeyChoice}
                  newKey={newKey}
                  onNewKey={setNewKey}
                  onSaved={() => setNewKey(null)}
                />
              )}
              {step.id === 'review' && (
                <ReviewStep
                  values={values}
                  request={request}
                  formProblems={formProblems}
                  volumes={volumes}
                  onEdit={goToStep}
                  submitting={start.isPending}
                  submitError={start.error}
                  onBack={() => show(current - 1)}
                  readOnlyAvailable={caps.readOnlyAttach.available}
                />
              )}

              {current < REVIEW && (
                <div className="mt-6 flex items-center justify-between gap-3 border-t border-slate-200 pt-4">
                  {current > 0 ? <Button onClick={() => show(current - 1)}>Back</Button> : <span />}
                  <Button type="submit" variant="primary">
                    Next: {STEPS[current + 1]?.title}
                  </Button>
                </div>
              )}
            </div>
          </form>
        </FormProvider>
        {current !== REVIEW && (
          <aside className="hidden xl:block">
            <div className="sticky top-4">
              <LaunchSummary values={values} volumes={volumes} compact />
            </div>
          </aside>
        )}
      </div>
    </div>
  );
}
