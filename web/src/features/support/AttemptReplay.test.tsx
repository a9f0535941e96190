// The visitor's screen replayed on the console's attempt page (issue 27): the page's own panels,
// read-only, at the event the scrubber or the list of events chooses, personal data masked.
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import vectors from '../../../../tests/vectors/activation/flows.json';
import { FakeApi, FakeEventSource, renderAt, SUPPORT } from '../../testing/staff';
import { asTimeline } from '../../testing/replay';
import type { TimelineEntry } from './api';
import { detailOf, REFUSED } from './fixtures';

const ID = 'activation-0b6f2c1e-4444-4000-8000-000000000004';
const PATH = `/api/support/attempts/${ID}`;

/** The happy path of the standard page, as the console's timeline gives it. */
const happy = (vectors as unknown as { sequences: { steps: { type?: string; data?: Record<string, unknown>; at: string; tick?: boolean }[] }[] })
  .sequences[0].steps.filter((s) => !s.tick);
const TIMELINE: TimelineEntry[] = asTimeline(happy.map((s) => ({ type: s.type ?? '', data: s.data, at: s.at }))).map((e) => ({
  ...e,
  actor: e.type.endsWith('submitted') || e.type === 'store.redirected' ? 'visitor' : 'runner',
  step: null,
  seen: null,
}));

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: SUPPORT })
    .on(`GET ${PATH}`, {
      status: 200,
      body: detailOf({ ...REFUSED, id: ID, variant: 'standard', outcome: { kind: 'completed' } }, { timeline: TIMELINE }),
    })
    .install();
});
afterEach(() => vi.unstubAllGlobals());

const replay = () => screen.findByRole('region', { name: 'Tela do visitante, passo a passo' });
const screenOf = (section: HTMLElement) => section.querySelector<HTMLElement>('.sp-replay__screen') as HTMLElement;

describe('the visitor screen replayed', () => {
  it('opens on the latest event, the page’s own panel, read-only', async () => {
    renderAt(`/suporte/tentativas/${ID}`);
    const section = await replay();
    const slider = within(section).getByRole('slider', { name: /Evento 7 de 7/ });
    expect(slider.getAttribute('aria-valuetext')).toBe('Evento 7 de 7: store.redirected, 09:00:06, tela Indo para a loja de apps');
    const shown = screenOf(section);
    expect(shown.dataset.panel).toBe('redirect_store');
    expect(shown.hasAttribute('inert')).toBe(true);
    expect(shown.querySelector('h1')?.textContent).toBe('Pronto! Seu EXA Segurança está ativado.');
  });

  it('moves with the scrubber and the list of events, showing the masked phone', async () => {
    renderAt(`/suporte/tentativas/${ID}`);
    const section = await replay();
    const slider = within(section).getByRole('slider');
    fireEvent.change(slider, { target: { value: '1' } });
    expect(screenOf(section).dataset.panel).toBe('send_code');
    expect(within(section).getByText(/Evento/).textContent).toBe('Evento 1 de 7');
    expect(within(section).getByRole('button', { name: 'Anterior' })).toHaveProperty('disabled', true);

    fireEvent.click(within(section).getByRole('button', { name: /Próximo/ }));
    expect(screenOf(section).dataset.version).toBe('2');

    const events = within(section).getByRole('list', { name: 'Eventos da tentativa' });
    fireEvent.click(within(events).getByRole('button', { name: /^3 .*code\.sent/ }));
    const shown = screenOf(section);
    expect(shown.dataset.panel).toBe('code_validation');
    expect(within(events).getByRole('button', { name: /^3 / }).getAttribute('aria-current')).toBe('step');
    expect(shown.textContent).toContain('(11) *****-4321');
    expect(shown.textContent).not.toContain('•••');
    expect(within(section).getByText(/Depois de/).textContent).toContain('code.sent');
  });
});
