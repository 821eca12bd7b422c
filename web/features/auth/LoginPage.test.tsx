/** The sign-in screen at each of its addresses, rendered to markup: both ways in, and only a safe return. */
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LoginPage } from './LoginPage.tsx';

function markup(url: string) {
  return renderToStaticMarkup(
    <RouterProvider router={createMemoryRouter([{ path: '/login', Component: LoginPage }, { path: '/auth', Component: LoginPage }, { path: '/signup', Component: LoginPage }], { initialEntries: [url] })} />,
  );
}

describe('LoginPage', () => {
  it.each(['/auth', '/login'])('%s is the sign-in screen with email and password and Continue with Google', (path) => {
    const html = markup(path);
    expect(html).toContain('Sign in to FrameMerch');
    expect(html).toContain('name="email"');
    expect(html).toContain('name="password"');
    expect(html).toMatch(/<button[^>]*>Continue with Google<\/button>/);
  });

  it('keeps a return to a page of this site and drops one to anywhere else', () => {
    expect(markup('/auth?returnTo=%2Fcheckout')).toContain('href="/signup?returnTo=%2Fcheckout"');
    for (const evil of ['%2F%2Fevil.example', 'https%3A%2F%2Fevil.example%2F', '%2F%5Cevil.example', 'javascript%3Aalert(1)']) {
      const html = markup(`/auth?returnTo=${evil}`);
      expect(html).toContain('href="/signup"');
      expect(html).not.toContain('evil');
      expect(html).not.toContain('javascript');
    }
  });
});
