import { useEffect, useState } from 'react';
import { useReplay } from '../../../components/flow/replay';

/**
 * Spec section 9: the phone field's info tip hides after 9 s. Replayed in the support console,
 * it is there if the panel had been on screen less than that at the replayed moment.
 */
export const PHONE_TIP_MS = 9000;

export function PhoneTip({ id }: { id: string }) {
  const replay = useReplay();
  const [live, setVisible] = useState(true);
  const visible = replay === null ? live : replay.at - replay.since < PHONE_TIP_MS;
  useEffect(() => {
    if (replay !== null) return undefined;
    const timer = window.setTimeout(() => setVisible(false), PHONE_TIP_MS);
    return () => window.clearTimeout(timer);
  }, [replay]);
  if (!visible) return null;
  return (
    <p className="cloud-tip" id={id} data-testid="phone-tip">
      Informe o celular com DDD. Enviaremos um código de 6 dígitos por SMS para este número.
    </p>
  );
}
