import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';

// One lazily loaded chunk per route: the home page loads only what it shows.
const Home = lazy(() => import('./pages/Home'));
const NotFound = lazy(() => import('./pages/NotFound'));

export function App() {
  return (
    <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
      <Routes>
        <Route path="/" element={<Home />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
