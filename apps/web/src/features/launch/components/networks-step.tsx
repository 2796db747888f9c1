import type { NetworkChoice } from '@sv/shared';
import { useWatch } from 'react-hook-form';
import { Badge } from '../../../components/ui/badge';
import { ErrorMessage } from '../../../components/ui/error-message';
import { Loading } from '../../../components/ui/spinner';
import { useNetworkChoices } from '../api/get-launch-choices';
import { errorAt, useLaunchForm } from './launch-form';

export const UNREACHABLE_WARNING =
  'The servers will have no network: nothing can reach them and they cannot reach anything until a port is added.';

/** A network's subnets in words: "10.0.0.0/24, fd00::/64", or that it has none. */
export const subnetsText = (n: NetworkChoice) =>
  n.subnets.length === 0
    ? 'No subnets: servers get no address on it'
    : n.subnets.map((s) => s.cidr).join(', ');

/** Step 6: the networks every server gets a port on; or none, where the cloud allows it. */
export function NetworksStep() {
  const form = useLaunchForm();
  const choices = useNetworkChoices();
  const value = useWatch({ control: form.control, name: 'networks' });
  const error = errorAt(form.formState.errors, 'networks');
  const errorId = 'launch-networks-error';

  if (choices.isPending) return <Loading label="Loading networks…" />;
  if (choices.isError)
    return (
      <ErrorMessage
        title="The networks could not be loaded"
        error={choices.error}
        onRetry={() => choices.refetch()}
      />
    );
  const { networkService, noneAllowed, networks } = choices.data;
  if (!networkService || networks.length === 0)
    return (
      <p
        role="note"
        className="max-w-xl rounded border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800"
      >
        {networkService
          ? 'There is no network this project can use, so the servers launch without a network.'
          : 'This cloud has no network service, so the servers launch without a network.'}{' '}
        Nothing will be able to reach them over the network.
      </p>
    );

  const chosen = Array.isArray(value) ? value : [];
  const set = (next: string[] | 'none') =>
    form.setValue('networks', next, { shouldDirty: true, shouldTouch: true, shouldValidate: true });
  const toggle = (id: string, on: boolean) =>
    set(on ? [...chosen.filter((x) => x !== id), id] : chosen.filter((x) => x !== id));

  return (
    <fieldset aria-describedby={error ? errorId : undefined} className="max-w-2xl">
      <legend className="mb-2 text-sm font-medium text-slate-800">Networks</legend>
      {error && (
        <p id={errorId} className="mb-2 text-sm text-red-700">
          {error}
        </p>
      )}
      <ul className="space-y-2">
        {networks.map((n) => {
          const id = `network-${n.id}`;
          return (
            <li key={n.id} className="rounded border border-slate-200 bg-white p-2">
              <label htmlFor={id} className="flex cursor-pointer items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  id={id}
                  className="mt-1"
                  checked={chosen.includes(n.id)}
                  onChange={(e) => toggle(n.id, e.target.checked)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-subnets`}
                />
                <span className="min-w-0">
                  <span className="flex flex-wrap items-center gap-1.5 font-medium">
                    <span className="break-all">{n.name || n.id}</span>
                    {n.shared && <Badge tone="violet">Shared</Badge>}
                    {n.external && <Badge tone="amber">External</Badge>}
                    {n.status !== 'ACTIVE' && <Badge tone="red">{n.status}</Badge>}
                  </span>
                  <span id={`${id}-subnets`} className="block break-words font-mono text-xs text-slate-700">
                    {subnetsText(n)}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
        {noneAllowed && (
          <li className="rounded border border-slate-200 bg-white p-2">
            <label htmlFor="network-none" className="flex cursor-pointer items-start gap-2 text-sm">
              <input
                type="checkbox"
                id="network-none"
                className="mt-1"
                checked={value === 'none'}
                onChange={(e) => set(e.target.checked ? 'none' : [])}
              />
              <span className="font-medium">No network</span>
            </label>
          </li>
        )}
      </ul>
      {value === 'none' && (
        <p
          role="note"
          className="mt-3 rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
        >
          {UNREACHABLE_WARNING}
        </p>
      )}
      {chosen.length > 1 && (
        <p className="mt-3 text-sm text-slate-700">
          Every server gets a port on each of the {chosen.length} networks, in the order chosen.
        </p>
      )}
    </fieldset>
  );
}
