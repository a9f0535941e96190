import { DownloadActor } from '../context';
import { TEXTS } from '../texts';

/** The flow's snackbar: closes by itself after 4 s (the machine's timer) or with 'Fechar'. */
export function Snackbar() {
  const actor = DownloadActor.useActorRef();
  const snackbar = DownloadActor.useSelector((s) => s.context.snackbar);
  return (
    <div className="dl-snackbar__region" aria-live="assertive">
      {snackbar && (
        <div className="dl-snackbar" role="alert" key={snackbar.id}>
          <span className="dl-snackbar__text">{snackbar.message}</span>
          <button type="button" className="dl-snackbar__close" onClick={() => actor.send({ type: 'DISMISS' })}>
            {TEXTS.close}
          </button>
        </div>
      )}
    </div>
  );
}
