import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatLag, ReadLag } from './ReadLag';

describe('the read lag notice', () => {
  it('says nothing for an answer from the primary or a standby at most a second behind', () => {
    for (const seconds of [undefined, 0, 0.4, 1]) {
      const { container, unmount } = render(<ReadLag seconds={seconds} />);
      expect(container.textContent).toBe('');
      unmount();
    }
  });

  it('says how far behind a standby past a second is', () => {
    render(<ReadLag seconds={4.2} />);
    expect(screen.getByRole('status').textContent).toBe(
      'Estes dados foram lidos de uma cópia do banco e podem estar atrasados em cerca de 4 s.',
    );
  });

  it('reads the lag in seconds, then minutes', () => {
    expect([formatLag(1.2), formatLag(59.4), formatLag(61), formatLag(600)]).toEqual([
      'cerca de 1 s',
      'cerca de 59 s',
      'cerca de 1 min',
      'cerca de 10 min',
    ]);
  });
});
