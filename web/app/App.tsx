import { RouterProvider } from 'react-router';
import { createAppRouter } from './router.tsx';

const router = createAppRouter();

/** The app's providers: only the router, since state lives in zustand stores (web/lib). */
export function App() {
  return <RouterProvider router={router} />;
}
