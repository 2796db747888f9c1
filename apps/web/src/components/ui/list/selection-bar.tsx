import { Button } from '../button';

/** Above a list: how many rows are ticked and what can be done with them; empty space otherwise. */
export function SelectionBar({
  count,
  onDelete,
  onClear,
}: {
  count: number;
  onDelete: () => void;
  onClear: () => void;
}) {
  return (
    <div className="flex min-h-9 flex-wrap items-center gap-3" aria-live="polite">
      {count > 0 && (
        <>
          <p className="text-sm font-medium text-slate-800">{count} selected</p>
          <Button size="sm" variant="danger" onClick={onDelete}>
            Delete selected…
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear selection
          </Button>
        </>
      )}
    </div>
  );
}
