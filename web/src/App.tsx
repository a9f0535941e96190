import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { EXTERNAL, TERMS_PATHS } from './content/company';
import { ACTIVATION_VARIANTS, CLOUD_VARIANTS, DOWNLOAD_ROUTE } from './lib/flows';

// One lazily loaded chunk per route: the home page loads only what it shows.
const Home = lazy(() => import('./pages/Home'));
const Contact = lazy(() => import('./pages/Contact'));
const Faq = lazy(() => import('./pages/Faq'));
const Security = lazy(() => import('./pages/Security'));
const BrisanetLanding = lazy(() => import('./pages/BrisanetLanding'));
const Cloud = lazy(() => import('./pages/Cloud'));
const Management = lazy(() => import('./pages/Management'));
const Chat = lazy(() => import('./pages/Chat'));
const Links = lazy(() => import('./pages/Links'));
const Terms = lazy(() => import('./pages/Terms'));
const ExternalRedirect = lazy(() => import('./pages/ExternalRedirect'));
const NotFound = lazy(() => import('./pages/NotFound'));
const Activation = lazy(() => import('./features/activation/ActivationPage'));
const CloudActivation = lazy(() => import('./features/cloud/CloudPage'));
const ClienteHero = lazy(() => import('./pages/ClienteHero'));
const DownloadPage = lazy(() => import('./features/download/DownloadPage'));
// The support console (docs/support.md): its own chunks, loaded by no public page.
const SupportSignInPage = lazy(() => import('./features/support/SupportSignInPage'));
const SupportLookupPage = lazy(() => import('./features/support/SupportLookupPage'));
const SupportAttemptPage = lazy(() => import('./pages/SupportAttempt'));
// The analysts' funnels (docs/funnels.md), same staff session; its charts are a further chunk.
const AnalyticsPage = lazy(() => import('./features/analytics/AnalyticsPage'));

/**
 * Marks the document once the page in the boundary above is React's (`data-interactive` on
 * <html>): its effect runs when the boundary commits, the lazy page's chunk included. A
 * prerendered page is visible before that and its buttons do nothing until then; the browser
 * tests wait for the mark before they act (tests/e2e/fixtures.ts).
 */
function Interactive() {
  useEffect(() => {
    document.documentElement.dataset.interactive = 'true';
  }, []);
  return null;
}

export function App() {
  return (
    <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
      <Routes>
        {/* Public site (docs/site.md) */}
        <Route path="/" element={<Home />} />
        <Route path="/contato" element={<Contact />} />
        <Route path="/faq" element={<Faq />} />
        <Route path="/seguranca" element={<Security />} />
        <Route path="/seguranca/brisanet" element={<BrisanetLanding />} />
        <Route path="/cloud" element={<Cloud />} />
        <Route path="/gestao" element={<Management />} />
        <Route path="/chat" element={<Chat />} />
        <Route path="/links" element={<Links />} />
        <Route path={TERMS_PATHS.terms} element={<Terms />} />
        <Route path={TERMS_PATHS.privacy} element={<Terms />} />
        <Route path="/termos" element={<ExternalRedirect to={EXTERNAL.termsPage} />} />
        <Route path="/atendimento" element={<Navigate to="/?show-bot" replace />} />

        {/* The three flows' pages (lib/flows.ts) */}
        <Route path={DOWNLOAD_ROUTE} element={<DownloadPage />} />
        {CLOUD_VARIANTS.map(({ key, path }) => (
          <Route key={key} path={path} element={<CloudActivation />} />
        ))}
        <Route path="/cliente/hero" element={<ClienteHero />} />
        {ACTIVATION_VARIANTS.map(({ key, path }) => (
          <Route key={key} path={path} element={<Activation variant={key} />} />
        ))}

        <Route path="/suporte/entrar" element={<SupportSignInPage />} />
        <Route path="/suporte" element={<SupportLookupPage />} />
        <Route path="/suporte/tentativas/:id" element={<SupportAttemptPage />} />
        <Route path="/analise" element={<AnalyticsPage />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
      <Interactive />
    </Suspense>
  );
}
