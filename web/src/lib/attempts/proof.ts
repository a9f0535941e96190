// The invisible bot check (issue 17, docs/abuse.md): a proof of work (ALTCHA v2, the
// `altcha-lib` library) that every command sending an SMS code must carry. It is solved in the
// background from the moment a flow page opens, so it is ready by the time the visitor has
// typed their phone; each proof is accepted once, and the next one starts solving at once.

import type { Challenge } from 'altcha-lib/types';

/** The commands of each flow that send a code (`tests/vectors/guarded_commands.json`). */
export const SMS_COMMANDS: Record<string, readonly string[]> = {
  activation: ['submit_phone', 'submit_email', 'resend_code'],
  cloud: ['start', 'submit_details', 'resend'],
  download: ['submit_phone', 'resend_code'],
};

/** The header the server reads the proof from. */
export const PROOF_HEADER = 'x-altcha';

export function needsProof(flow: string, command: Record<string, unknown>): boolean {
  return (SMS_COMMANDS[flow] ?? []).includes(String(command.type));
}

interface Proof {
  payload: string;
  /** Unix seconds after which the server refuses it. */
  expiresAt: number;
}

/** A proof this close to expiring is solved again rather than sent. */
const EXPIRY_MARGIN_MS = 30_000;


/** Names of the User Timing entries of one solve (read by tests/bench/altcha-solve.mjs). */
export const SOLVE_MEASURE = 'exa-proof-solve';
export const TOTAL_MEASURE = 'exa-proof-total';

async function fetchAndSolve(): Promise<Proof | null> {
  const started = performance.now();
  try {
    const response = await fetch('/api/altcha/challenge', { credentials: 'same-origin', cache: 'no-store' });
    if (!response.ok) return null;
    const challenge = (await response.json()) as Challenge;
    // Loaded on first use: the pages without a flow never download the solver.
    const [{ solveChallenge }, { deriveKey }] = await Promise.all([
      import('altcha-lib'),
      import('altcha-lib/algorithms/web/sha'),
    ]);
    const solving = performance.now();
    const solution = await solveChallenge({
      challenge,
      deriveKey,
      timeout: 60_000,
    });
    if (!solution) return null;
    performance.measure(SOLVE_MEASURE, { start: solving });
    performance.measure(TOTAL_MEASURE, { start: started });
    return { payload: btoa(JSON.stringify({ challenge, solution })), expiresAt: challenge.parameters.expiresAt ?? 0 };
  } catch {
    // No proof: the server answers with its own Portuguese message, and the next try solves again.
    return null;
  }
}

let ready: Promise<Proof | null> | null = null;

/** Starts solving a proof in the background, unless one is already on its way. */
export function prepareProof(): void {
  ready ??= fetchAndSolve();
}

/** A proof for one command (null when none could be had); the next starts solving at once. */
export async function takeProof(): Promise<string | null> {
  const pending = ready ?? fetchAndSolve();
  ready = null;
  let proof = await pending;
  if (!proof || proof.expiresAt * 1000 - Date.now() < EXPIRY_MARGIN_MS) proof = await fetchAndSolve();
  prepareProof();
  return proof?.payload ?? null;
}

/** Forgets a prepared proof (tests start each case clean). */
export function resetProofs(): void {
  ready = null;
}
