import { useState } from 'react';

/**
 * A message the visitor may close with the banner's X: it stays closed until the field changes
 * (`key`) or another message comes.
 */
export function useDismissible(message: string | null, key: string): [string | null, () => void] {
  const [closed, setClosed] = useState<{ message: string; key: string } | null>(null);
  const hidden = message !== null && closed !== null && closed.message === message && closed.key === key;
  return [hidden ? null : message, () => message !== null && setClosed({ message, key })];
}
