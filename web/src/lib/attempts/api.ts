// The attempt API shared by the three flows (see docs/attempts.md).

import { needsProof, PROOF_HEADER, takeProof } from './proof';

export interface AttemptEvent {
  type: string;
  data: Record<string, unknown> | null;
  version: number;
  at: string;
}

export interface AttemptReply<View = Record<string, unknown>> {
  id: string;
  flow: string;
  version: number;
  events: AttemptEvent[];
  view: View;
}

/** A refusal with the spec's message (422), or any other failure with a generic one. */
export class AttemptError extends Error {
  readonly status: number;
  readonly field: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | null;
  /** The abuse limit that refused the command (`wrong_codes`, ...), as the server names it. */
  readonly rule: string | null;
  /** A start waiting in line past capacity: how many are ahead of this visitor. */
  readonly ahead: number | null;
  constructor(
    status: number,
    message: string,
    field: string | null,
    retryAfter: number | null = null,
    rule: string | null = null,
    ahead: number | null = null,
  ) {
    super(message);
    this.name = 'AttemptError';
    this.status = status;
    this.field = field;
    this.retryAfter = retryAfter;
    this.rule = rule;
    this.ahead = ahead;
  }
}

export const NETWORK_MESSAGE = 'Ops, ocorreu um erro. Tente novamente em instantes.';

async function call<View>(url: string, init: RequestInit): Promise<AttemptReply<View>> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', ...init });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new AttemptError(0, NETWORK_MESSAGE, null);
  }
  const body = (await response.json().catch(() => null)) as
    | (AttemptReply<View> & { message?: string; field?: string | null; rule?: string | null; ahead?: number })
    | null;
  if (!response.ok || body === null) {
    const retryAfter = Number.parseInt(response.headers.get('retry-after') ?? '', 10);
    const rule = typeof body?.rule === 'string' ? body.rule : null;
    const ahead = typeof body?.ahead === 'number' && body.ahead >= 0 ? body.ahead : null;
    throw new AttemptError(
      response.status,
      body?.message ?? NETWORK_MESSAGE,
      body?.field ?? null,
      Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
      rule,
      ahead,
    );
  }
  return body;
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

/** The headers of a command: its proof of work when it sends a code. */
async function commandHeaders(flow: string, command: Record<string, unknown>): Promise<Record<string, string>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (needsProof(flow, command)) {
    const proof = await takeProof();
    if (proof) headers[PROOF_HEADER] = proof;
  }
  return headers;
}

/** Starts an attempt of `flow` with its start command. */
export async function startAttempt<View>(
  flow: string,
  command: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<AttemptReply<View>> {
  return call<View>('/api/attempts', {
    method: 'POST',
    headers: await commandHeaders(flow, command),
    body: JSON.stringify({ flow, command }),
    signal,
  });
}

/** Sends one command; a retry of the same call reuses its idempotency key. */
export async function sendCommand<View>(
  id: string,
  command: Record<string, unknown>,
  signal?: AbortSignal,
  idempotencyKey: string = newKey(),
): Promise<AttemptReply<View>> {
  // An attempt's id is `<flow>-<uuid>`.
  const flow = id.split('-')[0] ?? '';
  return call<View>(`/api/attempts/${encodeURIComponent(id)}/commands`, {
    method: 'POST',
    headers: { ...(await commandHeaders(flow, command)), 'idempotency-key': idempotencyKey },
    body: JSON.stringify(command),
    signal,
  });
}

export function getAttempt<View>(id: string, signal?: AbortSignal): Promise<AttemptReply<View>> {
  return call<View>(`/api/attempts/${encodeURIComponent(id)}`, { method: 'GET', signal });
}

/** How often a page whose stream was refused reads its attempt instead. */
export const POLL_MS = 2000;

/** `EventSource.CLOSED`: the browser gave up on the stream and will not reconnect. */
const CLOSED = 2;

/**
 * Follows the attempt's changes (steps the server finishes later). Returns a function that
 * stops following. EventSource reconnects by itself after a dropped connection or a stream
 * the server ended (its lifetime), but not after a refusal (429 when one client holds too
 * many streams): then `onRefused` is called once.
 */
export function subscribeAttempt<View>(
  id: string,
  onReply: (reply: AttemptReply<View>) => void,
  onRefused: () => void = () => {},
): () => void {
  const source = new EventSource(`/api/attempts/${encodeURIComponent(id)}/stream`);
  source.onmessage = (message) => {
    try {
      onReply(JSON.parse(message.data) as AttemptReply<View>);
    } catch {
      // A malformed message is skipped; the next one carries the whole view again.
    }
  };
  source.onerror = () => {
    if (source.readyState !== CLOSED) return;
    source.onerror = null;
    onRefused();
  };
  return () => source.close();
}

/**
 * Follows the attempt's new events. A message that skips versions (a reconnect after a drop)
 * is completed by reading the whole attempt, and so is the start, since steps may have finished
 * between the command's reply and the subscription; receivers skip what they already applied.
 * When the stream is refused, the same read every POLL_MS takes its place, so the page never
 * waits on news that cannot come.
 */
export function followAttemptEvents(id: string, onEvents: (events: AttemptEvent[]) => void): () => void {
  let last = 0;
  let polling = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  const catchUp = () =>
    getAttempt(id)
      .then((all) => onEvents(all.events))
      .catch(() => {});
  // One poll at a time: a slow answer is not piled on.
  const poll = () => {
    if (polling) return;
    polling = true;
    void catchUp().finally(() => {
      polling = false;
    });
  };
  const unsubscribe = subscribeAttempt(
    id,
    (reply) => {
      const events = reply.events ?? [];
      const first = events[0];
      if (first && first.version > last + 1) catchUp();
      for (const event of events) last = Math.max(last, event.version);
      onEvents(events);
    },
    () => {
      poll();
      timer = setInterval(poll, POLL_MS);
    },
  );
  void catchUp();
  return () => {
    unsubscribe();
    if (timer !== null) clearInterval(timer);
  };
}
