import { useEffect } from 'react';
import { prepareProof } from './proof';

/** Starts solving the proof of work when a flow page opens, while the visitor types. */
export function useProofOfWork(): void {
  useEffect(() => {
    prepareProof();
  }, []);
}
