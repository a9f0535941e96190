import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False while the page is prerendered and during the render that hydrates it, true on every
 * other render (and from the first one when the page is rendered in the browser). Whatever
 * depends on the visitor's browser (storage, the address's query, today's date) reads it only
 * once this is true, so the first render in the browser matches the prerendered HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
