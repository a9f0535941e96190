export default function Home() {
  return (
    <main>
      <h1>EXA</h1>
      <p>Proteção digital para você e sua família.</p>
    </main>
  );
}
