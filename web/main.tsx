// Base styles first, so every component stylesheet after them wins ties.
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { useAuth } from './lib/useAuth.ts';

// The session check starts with the page, not after the first render.
void useAuth.getState().load();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
