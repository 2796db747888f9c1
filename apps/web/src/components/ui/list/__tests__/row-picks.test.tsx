import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Table, TBody, THead, Tr, Th } from '../../table';
import { PickAllHeader, PickCell, useRowPicks } from '../row-picks';

interface Row {
  id: string;
  busy: boolean;
}

function Picker({ rows, onPicked }: { rows: Row[]; onPicked: (ids: string[]) => void }) {
  const picks = useRowPicks(
    rows,
    (r) => r.id,
    (r) => (r.busy ? `${r.id} is busy` : null),
  );
  onPicked(picks.picked.map((r) => r.id));
  return (
    <Table caption="rows">
      <THead>
        <PickAllHeader picks={picks} label="Select all" />
        <Th>Row</Th>
      </THead>
      <TBody>
        {rows.map((r) => (
          <Tr key={r.id}>
            <PickCell picks={picks} row={r} label={`Select ${r.id}`} />
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

describe('row picks on a live table', () => {
  it('keeps ticks while rows change, drops a row that becomes unpickable, and ticks all that can be', async () => {
    const user = userEvent.setup();
    let picked: string[] = [];
    const seen = (ids: string[]) => {
      picked = ids;
    };
    const a = { id: 'a', busy: false };
    const b = { id: 'b', busy: false };
    const c = { id: 'c', busy: true };
    const { rerender } = render(<Picker rows={[a, b, c]} onPicked={seen} />);
    expect(screen.getByRole('checkbox', { name: 'Select c' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Select c' })).toHaveAttribute('title', 'c is busy');

    await user.click(screen.getByRole('checkbox', { name: 'Select a' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select b' }));
    expect(picked).toEqual(['a', 'b']);

    // A live update: a new row arrives and b starts detaching; a's tick stays, b's drops out.
    const d = { id: 'd', busy: false };
    rerender(<Picker rows={[a, { id: 'b', busy: true }, c, d]} onPicked={seen} />);
    expect(picked).toEqual(['a']);
    expect(screen.getByRole('checkbox', { name: 'Select all' })).not.toBeChecked();

    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(picked).toEqual(['a', 'd']);
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(picked).toEqual([]);
  });
});
