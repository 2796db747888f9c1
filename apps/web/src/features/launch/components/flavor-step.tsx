import { ErrorMessage } from '../../../components/ui/error-message';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/spinner';
import { Table, TBody, Td, Th, THead, Tr } from '../../../components/ui/table';
import { useFlavors } from '../api/get-launch-catalog';
import { useWatch } from 'react-hook-form';
import { countOf, errorAt, formatRam, useLaunchForm } from './launch-form';
import { QuotaPanel } from './quota-panel';

/** Step 2: the flavor, one radio per row of a table. */
export function FlavorStep() {
  const form = useLaunchForm();
  const flavors = useFlavors();
  const error = errorAt(form.formState.errors, 'flavorId');
  const errorId = 'launch-flavor-error';
  const [flavorId, rawCount] = useWatch({ control: form.control, name: ['flavorId', 'count'] });

  if (flavors.isPending) return <Loading label="Loading flavors…" />;
  if (flavors.isError)
    return (
      <ErrorMessage
        title="The flavors could not be loaded"
        error={flavors.error}
        onRetry={() => flavors.refetch()}
      />
    );
  const list = [...flavors.data.flavors].sort((a, b) => a.ramMb - b.ramMb || a.vcpus - b.vcpus);
  if (list.length === 0)
    return (
      <EmptyState title="No flavors">
        This project cannot use any flavor. Ask your cloud administrator.
      </EmptyState>
    );

  return (
    <div className="space-y-4">
      <fieldset aria-describedby={error ? errorId : undefined}>
        <legend className="sr-only">Flavor</legend>
        {error && (
          <p id={errorId} className="mb-2 text-sm text-red-700">
            {error}
          </p>
        )}
        <Table caption="Flavors">
          <THead>
            <Th>Flavor</Th>
            <Th className="text-right">vCPUs</Th>
            <Th className="text-right">RAM</Th>
            <Th className="text-right">Root disk</Th>
          </THead>
          <TBody>
            {list.map((f) => {
              const id = `flavor-${f.id}`;
              return (
                <Tr key={f.id}>
                  <Td>
                    <label htmlFor={id} className="flex cursor-pointer items-center gap-2 font-medium">
                      <input
                        type="radio"
                        id={id}
                        value={f.id}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={error ? errorId : undefined}
                        {...form.register('flavorId')}
                      />
                      {f.name}
                    </label>
                  </Td>
                  <Td className="text-right tabular-nums">{f.vcpus}</Td>
                  <Td className="text-right tabular-nums">{formatRam(f.ramMb)}</Td>
                  <Td className="text-right tabular-nums">{f.diskGb} GB</Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      </fieldset>
      <QuotaPanel count={countOf({ count: rawCount })} flavor={list.find((f) => f.id === flavorId)} />
    </div>
  );
}
