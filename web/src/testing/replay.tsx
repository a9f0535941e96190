// Helpers of the replay tests (features/<flow>/replay.test.tsx): the shared vectors' events as
// the support console's timeline gives them, and the HTML of a replayed screen.

import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { replayAt, ReplayContext, type ReplayFlow } from '../components/flow/replay';
import { HIDDEN, type Frame, type ReplayedEvent } from '../lib/attempts/replay/fold';

/** The console masks personal data, which the browser received as null, as "•••". */
function masked(value: unknown): unknown {
  if (value === null) return HIDDEN;
  if (Array.isArray(value)) return value.map(masked);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, masked(v)]));
  }
  return value;
}

/** A vector's events (personal data null, as the browser receives them) as the console's timeline entries. */
export function asTimeline(events: { type: string; data?: Record<string, unknown> | null; at: string }[]): ReplayedEvent[] {
  return events.map((event, i) => ({ version: i + 1, type: event.type, at: event.at, data: masked(event.data ?? {}) }));
}

/**
 * `html` with each element's attributes in name order: React sets an attribute that changes
 * after the first render (a field disabled by a later event) after the others.
 */
export function canonicalHtml(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll('*')) {
    const attributes = [...element.attributes].map((a) => [a.name, a.value] as const).sort(([a], [b]) => a.localeCompare(b));
    for (const [name] of attributes) element.removeAttribute(name);
    for (const [name, value] of attributes) element.setAttribute(name, value);
  }
  return template.innerHTML;
}

/** The HTML of the replayed screen of frame `index`, as the console renders it (attributes in name order). */
export function replayedHtml(flow: ReplayFlow, frames: Frame[], index: number, variant: string | null, events: ReplayedEvent[]): string {
  const { Screen } = flow;
  const frame = frames[index];
  const { container, unmount } = render(
    <MemoryRouter>
      <ReplayContext.Provider value={replayAt(flow, frames, index)}>
        <Screen frame={frame} variant={variant} events={events} />
      </ReplayContext.Provider>
    </MemoryRouter>,
  );
  const html = canonicalHtml(container.innerHTML);
  unmount();
  return html;
}
