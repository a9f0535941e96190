// The console's one fetch layer (TanStack Query): every staff page reads its data through
// useStaffQuery, so idle / loading / failed / done is TanStack's state, not a union per page.
// A 401 sends the agent to sign-in (and back); other failures carry the server's message.

import { QueryClient, useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import { StaffApiError } from './api';
import { useStaff } from './session';

export const GENERIC_FAILURE = 'Algo não funcionou como esperado. Tente de novo em instantes.';

/**
 * One client for the console's pages. A refusal is an answer, not a hiccup: no retries; and the
 * pages read again when they mount or are asked to, not when the window gets the focus.
 */
export const staffQueryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 } },
});

/** What a page shows for a failed read; null when there is nothing to show (signed out, cancelled). */
export function failureMessage(error: unknown): string | null {
  if ((error as Error | null)?.name === 'AbortError') return null;
  if (error instanceof StaffApiError) return error.status === 401 ? null : error.message;
  return GENERIC_FAILURE;
}

/** The HTTP status of a failed read (0 for a network failure or an unknown error). */
export const failureStatus = (error: unknown) => (error instanceof StaffApiError ? error.status : 0);

/** useQuery for a staff API read: a 401 sends to sign-in; `message` is what the page shows. */
export function useStaffQuery<T>(options: UseQueryOptions<T, Error, T, QueryKey>) {
  const { expired } = useStaff();
  const result = useQuery(options);
  const signedOut = failureStatus(result.error) === 401;
  useEffect(() => {
    if (signedOut) expired();
  }, [signedOut, expired]);
  return { ...result, message: result.error ? failureMessage(result.error) : null, failedStatus: failureStatus(result.error) };
}
