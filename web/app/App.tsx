import { RouterProvider } from 'react-router';
import { startAuth } from './authStartup.ts';
import { createAppRouter } from './router.tsx';

const router = createAppRouter();
// The session check starts with the page, not after the first render.
startAuth(router);

/** The app's providers: only the router, since state lives in zustand stores (web/lib). */
export function App() {
  return <RouterProvider router={router} />;
}
