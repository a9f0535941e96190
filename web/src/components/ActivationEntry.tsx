import { Link } from 'react-router';

/** The way in to activation for a visitor who already holds a licence code (home and /seguranca). */
export function ActivationEntry() {
  return (
    <section className="activation-entry" aria-labelledby="activation-entry-title">
      <div className="container activation-entry__inner">
        <div>
          <h2 id="activation-entry-title">Já tem um código?</h2>
          <p>Recebeu um código de licença por e-mail ou SMS ao contratar? Ative a sua proteção em poucos passos.</p>
        </div>
        <Link to="/seguranca/ativar" className="button button--primary">
          Ativar agora
        </Link>
      </div>
    </section>
  );
}
