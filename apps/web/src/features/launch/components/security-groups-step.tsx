import { useWatch } from 'react-hook-form';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { useSecurityGroupChoices } from '../api/get-launch-choices';
import { errorAt, useLaunchForm } from './launch-form';

/** Step 7: the security groups on every server's ports; the project's `default` to start with. */
export function SecurityGroupsStep() {
  const form = useLaunchForm();
  const choices = useSecurityGroupChoices();
  const value = useWatch({ control: form.control, name: 'securityGroups' });
  const error = errorAt(form.formState.errors, 'securityGroups');
  const errorId = 'launch-security-groups-error';

  if (choices.isPending) return <Loading label="Loading security groups…" />;
  if (choices.isError)
    return (
      <ErrorMessage
        title="The security groups could not be loaded"
        error={choices.error}
        onRetry={() => choices.refetch()}
      />
    );
  const { networkService, securityGroups } = choices.data;
  if (!networkService || securityGroups.length === 0)
    return (
      <p
        role="note"
        className="max-w-xl rounded border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800"
      >
        {networkService
          ? 'This project has no security groups to choose from; the cloud applies its own default.'
          : 'This cloud has no network service, so there are no security groups to choose.'}
      </p>
    );

  const chosen = value ?? [];
  // None chosen means the cloud's choice (the project's default), not "no rules": say so, send nothing.
  const set = (next: string[]) =>
    form.setValue('securityGroups', next.length > 0 ? next : undefined, {
      shouldDirty: true,
      shouldTouch: true,
      shouldValidate: true,
    });

  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="max-w-2xl">
      <legend className="mb-2 text-sm font-medium text-slate-800">Security groups</legend>
      {error && (
        <p id={errorId} className="mb-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <ul className="space-y-2">
        {securityGroups.map((g) => {
          const id = `security-group-${g.id}`;
          return (
            <li key={g.id} className="rounded border border-slate-200 bg-white p-2">
              <label htmlFor={id} className="flex cursor-pointer items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  id={id}
                  className="mt-1"
                  checked={chosen.includes(g.id)}
                  onChange={(e) =>
                    set(e.target.checked ? [...chosen, g.id] : chosen.filter((x) => x !== g.id))
                  }
                  aria-describedby={`${id}-about`}
                />
                <span className="min-w-0">
                  <span className="block break-all font-medium">{g.name}</span>
                  <span id={`${id}-about`} className="block break-words text-xs text-slate-700">
                    {g.ruleCount === 1 ? '1 rule' : `${g.ruleCount} rules`}
                    {g.description ? ` · ${g.description}` : ''}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {chosen.length === 0 && (
        <p role="note" className="mt-3 text-sm text-slate-700">
          No group chosen: the cloud puts the servers in the project&apos;s default group.
        </p>
      )}
    </fieldset>
  );
}
