import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import './styles/global.css';
import { loadTypefaceAfterFirstPaint } from './typeface';

const root = document.getElementById('root');
loadTypefaceAfterFirstPaint();

/** Whether `root` holds the build's HTML of this very route (scripts/prerender.mjs). */
function prerenderedHere(element: HTMLElement): boolean {
  const path = window.location.pathname.replace(/(.)\/+$/, '$1');
  return element.dataset.prerendered === path && element.firstChild !== null;
}

if (root) {
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  // A public page arrives prerendered: React takes over its HTML. Every other page (the flows,
  // the staff consoles, the 404) arrives as the empty shell and is rendered here.
  if (prerenderedHere(root)) {
    hydrateRoot(root, app);
  } else {
    root.replaceChildren();
    createRoot(root).render(app);
  }
}
