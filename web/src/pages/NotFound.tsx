import { Link } from 'react-router';

export default function NotFound() {
  return (
    <main>
      <h1>Página não encontrada</h1>
      <p>
        O endereço que você abriu não existe. <Link to="/">Voltar para o início</Link>
      </p>
    </main>
  );
}
