import { useEffect, useRef } from 'react';
import { useReplay } from '../../../components/flow/replay';
import { DownloadActor } from '../context';
import { formatFirstLogin, formatLastLogin } from '../dates';
import { TEXTS } from '../texts';
import type { Device } from '../types';
import { ErrorBanner } from '../../../components/flow/ErrorBanner';
import { useDismissible } from './useDismissible';

const OS_NAMES: Record<string, string> = {
  windows: 'Windows',
  win_pc: 'Windows',
  mac: 'macOS',
  macos: 'macOS',
  android: 'Android',
  ios: 'iOS',
  linux: 'Linux',
};

function osLabel(device: Device): string {
  const name = OS_NAMES[device.os_type.toLowerCase()] ?? device.os_type;
  return [name, device.os_version].filter(Boolean).join(' ');
}

function DeviceCard({ device }: { device: Device }) {
  const actor = DownloadActor.useActorRef();
  return (
    <li className="dl-device" data-testid="device-card">
      <h4 className="dl-device__name">{device.device_name}</h4>
      <p className="dl-device__os">{osLabel(device)}</p>
      <dl className="dl-device__dates">
        {device.last_login !== null && (
          <div>
            <dt>{TEXTS.lastLogin}</dt>
            <dd>{formatLastLogin(device.last_login)}</dd>
          </div>
        )}
        {device.first_login !== null && (
          <div>
            <dt>{TEXTS.firstLogin}</dt>
            <dd>{formatFirstLogin(device.first_login)}</dd>
          </div>
        )}
      </dl>
      <button
        type="button"
        className="button button--outline button--small"
        onClick={() => actor.send({ type: 'DISCONNECT', deviceId: device.id })}
      >
        {TEXTS.disconnect}
      </button>
    </li>
  );
}

function ConfirmDialog({ device }: { device: Device }) {
  const actor = DownloadActor.useActorRef();
  const noButton = useRef<HTMLButtonElement>(null);
  // Replayed in the support console, the dialog takes no focus and listens to no key.
  const replay = useReplay() !== null;
  useEffect(() => {
    if (replay) return undefined;
    noButton.current?.focus();
    // Escape answers "no" while the dialog is open, wherever the focus is.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') actor.send({ type: 'CONFIRM_NO' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [actor, replay]);
  return (
    <div className="dl-dialog__backdrop">
      <div
        className="dl-dialog"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="dl-confirm-title"
        aria-describedby="dl-confirm-text"
      >
        <h4 id="dl-confirm-title">{TEXTS.confirmTitle}</h4>
        <p id="dl-confirm-text">{TEXTS.confirmText(device.device_name)}</p>
        <div className="dl-panel__actions">
          <button type="button" className="button button--primary" onClick={() => actor.send({ type: 'CONFIRM_YES' })}>
            {TEXTS.yes}
          </button>
          <button
            ref={noButton}
            type="button"
            className="button button--outline"
            onClick={() => actor.send({ type: 'CONFIRM_NO' })}
          >
            {TEXTS.no}
          </button>
        </div>
      </div>
    </div>
  );
}

/** NO_FREE_LICENSE: the devices holding the licences, N/N, and a way to free one. */
export function LicencesPanel() {
  const devices = DownloadActor.useSelector((s) => s.context.devices);
  const confirmId = DownloadActor.useSelector((s) => s.context.confirmDevice);
  const confirming = devices.find((d) => d.id === confirmId);
  const refusal = DownloadActor.useSelector((s) => (s.context.field === 'device' ? s.context.error : null));
  const [shownRefusal, dismiss] = useDismissible(refusal, String(devices.length));
  return (
    <section className="dl-panel" aria-labelledby="dl-licences-title">
      <h3 id="dl-licences-title" className="dl-panel__title">
        {TEXTS.licencesTitle}
      </h3>
      <p>{TEXTS.licencesText}</p>
      <p className="dl-licences__counter">
        {TEXTS.licencesCounter}: <strong data-testid="licence-counter">{`${devices.length}/${devices.length}`}</strong>
      </p>
      <ul className="dl-devices">
        {devices.map((device) => (
          <DeviceCard key={device.id} device={device} />
        ))}
      </ul>
      {shownRefusal && <ErrorBanner message={shownRefusal} onDismiss={dismiss} />}
      {confirming && <ConfirmDialog device={confirming} />}
    </section>
  );
}
