import type { EraseLeft, EraseReply } from '../api';

const KIND: Record<EraseLeft['kind'], string> = {
  phone: 'Telefone',
  cpf_cnpj: 'CPF/CNPJ',
  email: 'E-mail',
  staff_email: 'E-mail',
};

const WHY: Record<EraseLeft['why'], string> = {
  not_proved: 'digitado sem confirmação por SMS desta pessoa; pode ser de outra',
  staff: 'é o e-mail de uma conta da equipe e nunca é apagado por aqui',
};

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** What an erasure did, and what it met and left for the admin to decide on (issue 26). */
export function EraseOutcome({ reply }: { reply: EraseReply }) {
  const left = reply.left ?? [];
  return (
    <div className="sp-alert sp-alert--success" role="status">
      <p>
        Dados apagados: {plural(reply.subjects, 'pessoa ou identificador', 'pessoas ou identificadores')},{' '}
        {plural(reply.attempts, 'tentativa', 'tentativas')} e {plural(reply.secrets, 'token', 'tokens')}.
      </p>
      {left.length > 0 && (
        <>
          <p>
            Não apagados: só apague cada um pelo valor se a pessoa comprovar que é dela.
          </p>
          <ul>
            {left.map((item, i) => (
              <li key={i}>
                {KIND[item.kind] ?? item.kind}: {WHY[item.why] ?? item.why} (
                {plural(item.attempts.length, 'tentativa', 'tentativas')}).
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
