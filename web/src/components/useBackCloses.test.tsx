import { act, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useBackCloses } from './useBackCloses';

function Panel() {
  const [open, setOpen] = useState(true);
  const leaveEntry = useBackCloses(open, () => setOpen(false));
  if (!open) return <p>fechado</p>;
  return (
    <button
      type="button"
      onClick={() => {
        leaveEntry();
        setOpen(false);
      }}
    >
      Fechar
    </button>
  );
}

describe('useBackCloses', () => {
  it('adds one history entry while open, and Back closes the panel instead of leaving', async () => {
    const before = window.history.length;
    render(<Panel />);
    expect(window.history.length).toBe(before + 1);
    await act(async () => {
      window.history.back();
    });
    await waitFor(() => expect(screen.getByText('fechado')).toBeTruthy());
  });

  it("the panel's own close takes its entry away", async () => {
    render(<Panel />);
    const marked = () => (window.history.state as Record<string, unknown> | null)?.exaPanelOpen === true;
    expect(marked()).toBe(true);
    await act(async () => {
      screen.getByRole('button', { name: 'Fechar' }).click();
    });
    await waitFor(() => expect(marked()).toBe(false));
    expect(screen.getByText('fechado')).toBeTruthy();
  });
});
