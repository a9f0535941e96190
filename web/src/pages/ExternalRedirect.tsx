import { useEffect } from 'react';

/** Leaves the site for an external page, replacing this entry so Back does not bounce here. */
export default function ExternalRedirect({ to }: { to: string }) {
  useEffect(() => {
    window.location.replace(to);
  }, [to]);
  return (
    <main className="container section">
      <p>
        Redirecionando para <a href={to}>{to}</a>…
      </p>
    </main>
  );
}
