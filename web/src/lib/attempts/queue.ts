// The waiting line of a start refused past capacity (issue 30): the server answers a new
// attempt 503 with `Retry-After`; the page waits that long plus a random share of it, so the
// visitors refused together do not all come back in the same second, then tries again.

import { AttemptError } from './api';

/** The calm panel's words (server: `texts::PAST_CAPACITY`). */
export const QUEUE_MESSAGE = 'Muitas pessoas estão ativando agora. Você entra em instantes.';

/** When the server names no wait. */
export const DEFAULT_QUEUE_SECONDS = 5;
/** The most the page waits between tries, whatever the server says. */
export const MAX_QUEUE_SECONDS = 60;

/** A start the door refused (503 before the attempt exists): to wait out, not to show as an error. */
export function refusedAtTheDoor(error: unknown, attemptId: string | null): boolean {
  return attemptId === null && error instanceof AttemptError && error.status === 503;
}

/** Milliseconds until the next try: the server's wait, plus up to half of it at random. */
export function queueWaitMs(error: unknown, random: () => number = Math.random): number {
  const asked = error instanceof AttemptError && error.retryAfter !== null ? error.retryAfter : DEFAULT_QUEUE_SECONDS;
  const base = Math.min(Math.max(asked, 1), MAX_QUEUE_SECONDS) * 1000;
  return Math.round(base * (1 + random() / 2));
}

/** How many are ahead of this visitor in the waiting line, when the server said. */
export function placeInLine(error: unknown): number | null {
  return error instanceof AttemptError ? error.ahead : null;
}

const count = new Intl.NumberFormat('pt-BR');

/** The visitor's place in words: who is ahead of them in the line. */
export function placeWords(ahead: number): string {
  if (ahead <= 0) return 'Você é a próxima pessoa da fila.';
  if (ahead === 1) return 'Há 1 pessoa na sua frente na fila.';
  return `Há ${count.format(ahead)} pessoas na sua frente na fila.`;
}
