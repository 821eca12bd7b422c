import { describe, expect, it } from 'vitest';
import { hasAnyParam, readSignInReturn, withoutParams } from './signInReturn.ts';

describe('readSignInReturn', () => {
  it('recognises a successful sign-in', () => {
    expect(readSignInReturn('?login=success')).toEqual({ login: 'success', clear: false });
    expect(readSignInReturn('?t=5&login=success')).toEqual({ login: 'success', clear: false });
  });

  it('shows the words of a known reason, and the fallback text for anything else', () => {
    expect(readSignInReturn('?login=error&reason=cancelled')).toEqual({
      login: 'error',
      clear: false,
      alertText: 'Login failed: The sign-in was cancelled at the identity provider.',
    });
    expect(readSignInReturn('?login=error&reason=suspended')).toMatchObject({ alertText: 'Login failed: This account is suspended.' });
    for (const search of ['?login=error', '?login=error&reason=', '?login=error&reason=toString', '?login=error&reason=__proto__', '?login=error&reason=Call%20555-0100']) {
      expect(readSignInReturn(search), search).toMatchObject({ alertText: 'Login failed: An unknown error occurred. Please try again.' });
    }
  });

  it("never shows a link's own text as the site's", () => {
    expect(readSignInReturn('?login=error&message=Call%20support%20on%20555-0100')).toMatchObject({
      alertText: 'Login failed: An unknown error occurred. Please try again.',
    });
  });

  it('notices clear=true alone or beside a login result', () => {
    expect(readSignInReturn('?clear=true')).toEqual({ login: null, clear: true });
    expect(readSignInReturn('?clear=1')).toEqual({ login: null, clear: false });
    expect(readSignInReturn('?login=success&clear=true')).toEqual({ login: 'success', clear: true });
  });

  it('ignores pages opened without those parameters, or with other values', () => {
    expect(readSignInReturn('')).toEqual({ login: null, clear: false });
    expect(readSignInReturn('?q=cats')).toEqual({ login: null, clear: false });
    expect(readSignInReturn('?login=maybe')).toEqual({ login: null, clear: false });
  });
});

describe('withoutParams', () => {
  it('drops only the named parameters and keeps the rest in order', () => {
    expect(withoutParams('?a=1&login=success&b=2', ['login'])).toBe('?a=1&b=2');
    expect(withoutParams('?login=success&clear=true', ['login', 'clear'])).toBe('');
    expect(withoutParams('', ['login'])).toBe('');
  });
});

describe('hasAnyParam', () => {
  it('tells whether there is anything to drop', () => {
    expect(hasAnyParam('?login=success', ['login'])).toBe(true);
    expect(hasAnyParam('?q=x', ['login', 'clear'])).toBe(false);
  });
});
