import { DownloadActor } from '../context';
import { SUPPORT_PATH, TEXTS } from '../texts';

interface Props {
  id: string;
  title: string;
  text: string;
  /** 'Tentar novamente' goes back to the phone (user not found, download error). */
  canRetry: boolean;
}

/** A dead end with the contact-support button and, when offered, 'Tentar novamente'. */
export function ProblemPanel({ id, title, text, canRetry }: Props) {
  const actor = DownloadActor.useActorRef();
  return (
    <section className="dl-panel dl-panel--problem" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="dl-panel__title">
        {title}
      </h3>
      <p>{text}</p>
      <div className="dl-panel__actions">
        <a className="button button--primary" href={SUPPORT_PATH} target="_blank" rel="noopener noreferrer">
          {TEXTS.contactSupport}
        </a>
        {canRetry && (
          <button
            type="button"
            className="dl-link"
            onClick={() => actor.send({ type: 'RESTART' })}
          >
            {TEXTS.tryAgain}
          </button>
        )}
      </div>
    </section>
  );
}
