import { Link } from 'react-router';

export const CODES_EXHAUSTED_HEADING = 'Não enviamos mais códigos nesta tentativa';
export const CODES_EXHAUSTED_TEXT =
  'O código foi digitado errado muitas vezes e, por segurança, esta tentativa foi encerrada. Comece de novo para receber um novo código por SMS. Se o problema continuar, fale com nosso atendimento.';
export const START_AGAIN = 'Começar de novo';

/**
 * Takes the code form's place once the server refuses codes for good (too many wrong ones,
 * issue 29): no resend link that would cost an SMS for nothing, and the two ways out.
 */
export function CodesExhausted({ onStartAgain }: { onStartAgain: () => void }) {
  return (
    <div className="flow-exhausted" role="status">
      <h2 className="flow-exhausted__title">{CODES_EXHAUSTED_HEADING}</h2>
      <p className="flow-exhausted__text">{CODES_EXHAUSTED_TEXT}</p>
      <button type="button" className="button button--primary flow-exhausted__again" onClick={onStartAgain}>
        {START_AGAIN}
      </button>
      <Link className="flow-exhausted__support" to="/contato">
        Falar com o atendimento
      </Link>
    </div>
  );
}
