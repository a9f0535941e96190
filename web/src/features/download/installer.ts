// The installer is served by the orchestrator from the URL the antivirus API granted
// (GET /api/attempts/{id}/installer, Content-Disposition: attachment; filename=antivirus-installer.exe).

/** Spec §2: the name the browser saves the installer under. */
export const INSTALLER_FILE_NAME = 'antivirus-installer.exe';

export function installerUrl(attemptId: string, download: number): string {
  // The counter makes every grant a distinct address, so the browser never reuses an old answer.
  return `/api/attempts/${encodeURIComponent(attemptId)}/installer?n=${download}`;
}

/** Makes the browser save `url` under the installer's name. */
export function saveFile(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = INSTALLER_FILE_NAME;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
