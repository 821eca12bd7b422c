/** The router's table: the addresses the spec names reach their screens. */
import { describe, expect, it } from 'vitest';
import { routes } from './router.tsx';

describe('routes', () => {
  it('/auth is the sign-in screen, as /login is (not the not-found page)', () => {
    const children = routes[0]!.children![0]!.children!;
    const auth = children.find((r) => r.path === 'auth');
    const login = children.find((r) => r.path === 'login');
    expect(auth?.Component).toBeDefined();
    expect(auth?.Component).toBe(login?.Component);
  });
});
