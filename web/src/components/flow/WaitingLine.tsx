import './flow.css';
import { useEffect, useState } from 'react';
import { placeWords, QUEUE_MESSAGE } from '../../lib/attempts/queue';

interface Props {
  /** When the start is tried again (ms since the epoch). */
  until: number;
  /** How many are ahead in the line, when the server said. */
  ahead?: number | null;
}

/** Whole seconds left until `until`, never below zero. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/**
 * The waiting line of a start refused past capacity (issue 30): a calm panel, not an error,
 * with the visitor's place in the line (first come, first in, across the portal's servers) and a
 * countdown to the next try, which the flow's machine makes by itself. The fields around it
 * keep what the visitor typed.
 */
export function WaitingLine({ until, ahead = null }: Props) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [until]);
  const left = secondsLeft(until, now);
  return (
    <div className="flow-queue" role="status" aria-live="polite" data-testid="waiting-line">
      <span className="flow-queue__dot" aria-hidden="true" />
      <div>
        <p className="flow-queue__text">{QUEUE_MESSAGE}</p>
        {ahead !== null && <p className="flow-queue__place">{placeWords(ahead)}</p>}
        <p className="flow-queue__count">
          {left > 0 ? `Tentando de novo em ${left} ${left === 1 ? 'segundo' : 'segundos'}…` : 'Entrando…'}
        </p>
      </div>
    </div>
  );
}
