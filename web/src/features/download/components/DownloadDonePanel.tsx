import { DownloadActor } from '../context';
import { TEXTS } from '../texts';

/** Step 3: the browser is saving antivirus-installer.exe; 'clique aqui' asks again. */
export function DownloadDonePanel() {
  const actor = DownloadActor.useActorRef();
  return (
    <section className="dl-panel" aria-labelledby="dl-done-title">
      <h3 id="dl-done-title" className="dl-panel__title">
        {TEXTS.doneTitle}
      </h3>
      <p>{TEXTS.doneText}</p>
      <p>
        {TEXTS.doneRetryBefore}
        <button
          type="button"
          className="dl-link"
          onClick={() => actor.send({ type: 'RETRY_DOWNLOAD' })}
        >
          {TEXTS.doneRetryLink}
        </button>
        {TEXTS.doneRetryAfter}
      </p>
    </section>
  );
}
