import { useEffect, useState } from 'react';

/** Spec section 9: the phone field's info tip hides after 9 s. */
export const PHONE_TIP_MS = 9000;

export function PhoneTip({ id }: { id: string }) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = window.setTimeout(() => setVisible(false), PHONE_TIP_MS);
    return () => window.clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <p className="cloud-tip" id={id} data-testid="phone-tip">
      Informe o celular com DDD. Enviaremos um código de 6 dígitos por SMS para este número.
    </p>
  );
}
