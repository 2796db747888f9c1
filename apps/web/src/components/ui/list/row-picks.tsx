import { useState } from 'react';
import { Td, Th } from '../table';

/**
 * Ticks on the rows of a detail page's table (the attachments a bulk detach takes). Unlike a list
 * page's selection, the rows change under the user as live updates arrive, so a tick stays as long
 * as its row does and a row that can no longer be picked simply drops out of `picked`.
 */
export interface RowPicks<T> {
  /** Rows that can be ticked; none when the page offers no bulk action. */
  pickable: readonly T[];
  /** Ticked rows that can still be picked. */
  picked: readonly T[];
  blockOf: (row: T) => string | null;
  isPicked: (row: T) => boolean;
  toggle: (row: T, on: boolean) => void;
  setAll: (on: boolean) => void;
  clear: () => void;
}

export function useRowPicks<T>(
  rows: readonly T[],
  idOf: (row: T) => string,
  blockOf: (row: T) => string | null,
  enabled = true,
): RowPicks<T> {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const pickable = enabled ? rows.filter((r) => blockOf(r) === null) : [];
  const isPicked = (row: T) => pickable.includes(row) && ids.has(idOf(row));
  return {
    pickable,
    picked: pickable.filter(isPicked),
    blockOf,
    isPicked,
    toggle: (row, on) =>
      setIds((prev) => {
        const next = new Set(prev);
        if (on) next.add(idOf(row));
        else next.delete(idOf(row));
        return next;
      }),
    setAll: (on) => setIds(new Set(on ? pickable.map(idOf) : [])),
    clear: () => setIds(new Set()),
  };
}

const BOX = 'h-4 w-4 accent-blue-700';

/** The header cell ticking every pickable row; render only when `picks.pickable` has rows. */
export function PickAllHeader<T>({ picks, label }: { picks: RowPicks<T>; label: string }) {
  return (
    <Th className="w-8">
      <input
        type="checkbox"
        aria-label={label}
        className={BOX}
        checked={picks.picked.length === picks.pickable.length}
        onChange={(e) => picks.setAll(e.target.checked)}
      />
    </Th>
  );
}

/** One row's tick; a row that cannot be picked shows why on hover. */
export function PickCell<T>({ picks, row, label }: { picks: RowPicks<T>; row: T; label: string }) {
  const block = picks.blockOf(row);
  return (
    <Td>
      <input
        type="checkbox"
        aria-label={label}
        title={block ?? undefined}
        className={BOX}
        disabled={!picks.pickable.includes(row)}
        checked={picks.isPicked(row)}
        onChange={(e) => picks.toggle(row, e.target.checked)}
      />
    </Td>
  );
}
