import { type ReactNode, useRef, useState } from 'react';
import { Button } from '../button';
import { Dialog } from '../dialog';
import { errorText } from '../error-message';

export interface BulkItem {
  id: string;
  name: string;
  /** What the action does to this one, beyond the obvious ("its 2 volumes are detached"). */
  note?: string | undefined;
}

type Outcome = { state: 'waiting' | 'running' | 'done' } | { state: 'refused'; reason: string };

/** How many requests run at once: enough to be quick, few enough not to flood the cloud. */
const WIDTH = 3;

/**
 * One confirmation for an action on many items: it lists every item and what will happen to it,
 * then runs the action on each and shows each one's outcome, with the cloud's reason when it
 * refused. The dialog stays open until the user closes it, so the outcomes can be read.
 */
export function BulkActionDialog({
  open,
  onClose,
  title,
  intro,
  items,
  confirmLabel,
  doneLabel,
  run,
  onFinished,
}: {
  open: boolean;
  onClose: (finished: boolean) => void;
  title: string;
  intro: ReactNode;
  items: readonly BulkItem[];
  confirmLabel: string;
  /** The word for an item the cloud accepted ("Deleting", "Detaching"). */
  doneLabel: string;
  run: (id: string) => Promise<unknown>;
  /** After the last item's answer (refresh what the action changed). */
  onFinished?: () => unknown;
}) {
  const [outcomes, setOutcomes] = useState<Map<string, Outcome> | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const running =
    outcomes !== null && [...outcomes.values()].some((o) => o.state === 'running' || o.state === 'waiting');
  const finished = outcomes !== null && !running;

  const set = (id: string, o: Outcome) => setOutcomes((prev) => new Map(prev).set(id, o));
  const start = async () => {
    setOutcomes(new Map(items.map((i) => [i.id, { state: 'waiting' }])));
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const item = items[next++];
        if (!item) return;
        set(item.id, { state: 'running' });
        try {
          await run(item.id);
          set(item.id, { state: 'done' });
        } catch (err) {
          set(item.id, { state: 'refused', reason: errorText(err) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(WIDTH, items.length) }, worker));
    await onFinished?.();
  };
  const close = () => {
    const was = finished;
    setOutcomes(null);
    onClose(was);
  };

  const refused = outcomes ? [...outcomes.values()].filter((o) => o.state === 'refused').length : 0;
  const accepted = outcomes ? [...outcomes.values()].filter((o) => o.state === 'done').length : 0;

  return (
    <Dialog
      open={open}
      onClose={close}
      title={title}
      size="md"
      busy={running}
      initialFocus={cancelRef}
      description={intro}
      footer={
        finished ? (
          <Button ref={cancelRef} variant="primary" onClick={close}>
            Done
          </Button>
        ) : (
          <>
            <Button ref={cancelRef} onClick={close} disabled={running}>
              Cancel
            </Button>
            <Button variant="danger" onClick={start} loading={running}>
              {confirmLabel}
            </Button>
          </>
        )
      }
    >
      {finished && (
        <p role="status" className="mb-3 text-sm font-medium text-slate-900">
          {accepted} of {items.length} accepted{refused > 0 ? `; ${refused} refused (reasons below)` : ''}.
        </p>
      )}
      <ul className="divide-y divide-slate-100 text-sm" aria-label="Items">
        {items.map((item) => {
          const o = outcomes?.get(item.id);
          return (
            <li key={item.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-1.5">
              <span className="font-medium text-slate-900">{item.name || item.id}</span>
              <span className="font-mono text-xs text-slate-600">{item.id.slice(0, 8)}</span>
              {item.note && <span className="text-xs text-slate-700">{item.note}</span>}
              <span className="ml-auto text-xs">
                {o?.state === 'running' && <span className="text-slate-700">Working…</span>}
                {o?.state === 'done' && <span className="font-medium text-green-800">{doneLabel}</span>}
                {o?.state === 'refused' && (
                  <span className="font-medium text-red-800">Refused: {o.reason}</span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}
