/** The auth modal's first screen, rendered to markup: both ways to sign in are offered. */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthModal } from './AuthModal.tsx';

function markup(mode: 'login' | 'signup') {
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={['/video/0/abc?t=5&login=success']}>
      <AuthModal onClose={() => undefined} onSuccess={() => undefined} initialMode={mode} />
    </MemoryRouter>,
  );
}

describe('AuthModal', () => {
  it.each(['login', 'signup'] as const)('offers email and password and Continue with Google (%s)', (mode) => {
    const html = markup(mode);
    expect(html).toContain('Login Required');
    expect(html).toContain('name="email"');
    expect(html).toContain('name="password"');
    expect(html).toMatch(/<button[^>]*>Continue with Google<\/button>/);
  });
});
