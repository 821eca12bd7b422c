// Base styles first, so every component stylesheet after them wins ties.
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// Importing the app starts the session check (app/authStartup.ts), before the first render.
import { App } from './app/App.tsx';
import { registerServiceWorker } from './lib/serviceWorker.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Production builds only: the dev server has no /sw.js, and a cache would hide edits.
if (import.meta.env.PROD && 'serviceWorker' in navigator) registerServiceWorker();
