import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { secondsLeft, WaitingLine } from './WaitingLine';

describe('WaitingLine', () => {
  it('counts whole seconds down to the next try', () => {
    expect(secondsLeft(10_000, 4_001)).toBe(6);
    expect(secondsLeft(10_000, 9_999)).toBe(1);
    expect(secondsLeft(10_000, 12_000)).toBe(0);
  });

  it('is a calm status, not an alert, with the countdown', () => {
    render(<WaitingLine until={Date.now() + 4_500} />);
    const line = screen.getByRole('status');
    expect(line.textContent).toContain('Muitas pessoas estão ativando agora. Você entra em instantes.');
    expect(line.textContent).toMatch(/Tentando de novo em [45] segundos…/);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows how many are ahead in the line when the server said', () => {
    const { rerender } = render(<WaitingLine until={Date.now() + 1_000} ahead={0} />);
    expect(screen.getByRole('status').textContent).toContain('Você é a próxima pessoa da fila.');
    rerender(<WaitingLine until={Date.now() + 1_000} ahead={1} />);
    expect(screen.getByRole('status').textContent).toContain('Há 1 pessoa na sua frente na fila.');
    rerender(<WaitingLine until={Date.now() + 9_000} ahead={1234} />);
    expect(screen.getByRole('status').textContent).toContain('Há 1.234 pessoas na sua frente na fila.');
    rerender(<WaitingLine until={Date.now() + 5_000} />);
    expect(screen.getByRole('status').textContent).not.toContain('fila.');
  });
});
