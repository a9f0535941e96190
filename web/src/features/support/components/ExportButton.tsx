// The look-up page's "Baixar CSV" (issue 27): every result of the look-up, masked, as a file.
// The search goes in a POST's body like the look-up's own, so the file is fetched and saved here.

import { useState } from 'react';
import { StaffApiError } from '../../../lib/staff/api';
import { exportAttempts } from '../api';

/** Saves `blob` as `name` through a temporary link. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function ExportButton({ params, onUnauthorized }: { params: URLSearchParams; onUnauthorized: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const { blob, name } = await exportAttempts(params);
      save(blob, name ?? 'tentativas.csv');
    } catch (failure) {
      if (failure instanceof StaffApiError && failure.status === 401) {
        onUnauthorized();
        return;
      }
      setError(failure instanceof StaffApiError ? failure.message : 'Não foi possível baixar o CSV agora.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="sp-export">
      <button type="button" className="sp-button sp-button--secondary sp-button--small" disabled={busy} onClick={() => void download()}>
        {busy ? 'Preparando o CSV…' : 'Baixar resultados (CSV)'}
      </button>
      {error && (
        <span className="sp-field__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
