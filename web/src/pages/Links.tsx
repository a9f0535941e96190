import { Navigate, useSearchParams } from 'react-router';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { findDocument, type LinkedDocument } from '../content/documents';

function DocumentViewer({ doc }: { doc: LinkedDocument }) {
  usePageMeta({ title: doc.title, description: doc.description });
  return (
    <SiteShell>
      <section className="page-hero" aria-labelledby="doc-title">
        <div className="container">
          <h1 id="doc-title">{doc.title}</h1>
          <p className="hero__lead">{doc.description}</p>
        </div>
      </section>
      <div className="section">
        <div className="container">
          <iframe className="pdf-frame" src={doc.file} title={doc.title} data-testid="pdf-frame" />
          <p className="pdf-fallback">
            Não conseguiu ver o documento?{' '}
            <a href={doc.file} download>
              Baixar {doc.title} em PDF
            </a>
          </p>
        </div>
      </div>
    </SiteShell>
  );
}

/** /links?q=<key>: one of our PDFs embedded; an unknown key goes back to the home page. */
export default function Links() {
  const [params] = useSearchParams();
  const doc = findDocument(params.get('q'));
  if (!doc) return <Navigate to="/" replace />;
  // A new key must remount the viewer so its meta tags follow.
  return <DocumentViewer key={doc.key} doc={doc} />;
}
