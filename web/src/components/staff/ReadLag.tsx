// Said on a staff page whose answer came from a standby more than a second behind the primary
// (issue 28, DATABASE_READ_URL): what it shows may miss the latest moments.

/** Past this many seconds behind, the page says so. */
export const SHOWN_LAG_SECONDS = 1;

/** "cerca de 4 s", "cerca de 3 min": the lag as a person reads it. */
export function formatLag(seconds: number): string {
  if (seconds < 60) return `cerca de ${Math.max(1, Math.round(seconds))} s`;
  return `cerca de ${Math.round(seconds / 60)} min`;
}

export function ReadLag({ seconds }: { seconds: number | undefined }) {
  if (seconds === undefined || !(seconds > SHOWN_LAG_SECONDS)) return null;
  return (
    <p className="sp-alert sp-alert--notice" role="status">
      Estes dados foram lidos de uma cópia do banco e podem estar atrasados em {formatLag(seconds)}.
    </p>
  );
}
