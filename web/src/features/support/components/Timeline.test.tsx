import { render, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Timeline } from './Timeline';

describe('the timeline', () => {
  it('names the abuse limit that refused the visitor and what they were told', () => {
    const { container } = render(
      <Timeline
        mode="compact"
        entries={[
          {
            version: 5,
            type: 'abuse.limited',
            at: '2025-03-14T13:26:00Z',
            actor: 'visitor',
            step: null,
            data: { rule: 'sms_per_phone_10min', command: 'submit_phone', message: 'Você pediu muitos códigos.', retry_after_secs: 420 },
            seen: { panel: 'code_validation', message: null },
          },
        ]}
      />,
    );
    const event = container.querySelector('li.sp-event[data-version="5"]') as HTMLElement;
    expect(within(event).getByText('abuse.limited')).toBeTruthy();
    expect(within(event).getByText('Limite de códigos por celular em 10 minutos')).toBeTruthy();
    expect(within(event).getByText('“Você pediu muitos códigos.”')).toBeTruthy();
  });
});
