/**
 * The rules for a new password: its length, and how easy it is to guess, as zxcvbn judges it
 * (@zxcvbn-ts/core with the common and English dictionaries and keyboard layouts). Server only:
 * the dictionaries are megabytes, so the web app never imports this; it shows the server's
 * message instead.
 *
 * zxcvbn estimates the guesses an attacker needs, knowing common passwords, words, names, keyboard
 * walks, repeats, sequences, dates, l33t spellings and what the account itself gives away (the
 * email and the site's name). Score 3 (about 10^8 guesses and more) is accepted.
 */
import type { FeedbackType, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AUTH_MESSAGES, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../shared/schemas/auth.ts';

/** The lowest zxcvbn score (0 to 4) a new password may have. */
export const MIN_PASSWORD_SCORE = 3;

/**
 * zxcvbn's time grows with the length (a random 200-character password takes over a second, all
 * of it blocking the event loop); the first 64 characters are judged, which takes a few tens of
 * milliseconds at most. A longer password is at least as hard to guess as its first 64 characters.
 */
const JUDGED_LENGTH = 64;
/** Likewise the l33t matcher's work; 15 substitutions still find 7ru$7n01 (trustno1) and its kind. */
const L33T_MAX_SUBSTITUTIONS = 15;

let loading: Promise<ZxcvbnFactory> | null = null;

/** The estimator, built once, on the first password judged (the dictionaries load then). */
function estimator(): Promise<ZxcvbnFactory> {
  loading ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new ZxcvbnFactory({
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      maxLength: JUDGED_LENGTH,
      l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    });
  })().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}

/** The site's name and its words, which people put in a password made for the site. */
const SITE_WORDS = ['framemerch', 'frame', 'merch'];

/**
 * What the account gives away, for zxcvbn's user-input dictionary: the email; its local part
 * whole, without its digits, run together, and split on '.', '_', '-', '+' and digits; and the
 * site's name. 'maria_garcia85@example.com' gives maria_garcia85@example.com, maria_garcia85,
 * maria_garcia, mariagarcia, maria and garcia (and framemerch, frame, merch).
 */
export function personalWords(email: string): string[] {
  const address = email.trim().toLowerCase();
  const local = address.split('@')[0] ?? '';
  const separators = /[._\-+\d]+/g;
  const words = [
    address,
    local,
    ...local.split(/\d+/),
    local.replace(separators, ''),
    ...local.split(separators),
    ...SITE_WORDS,
  ];
  return [...new Set(words.filter((word) => word.length >= 3))];
}

/** The refusal for a guessable password: the lead sentence and zxcvbn's reason, or a general one. */
export function weakPasswordMessage(feedback: FeedbackType): string {
  const reason = [feedback.warning, feedback.suggestions[0]].filter((s): s is string => Boolean(s)).join(' ');
  return `${AUTH_MESSAGES.passwordTooWeak} ${reason || AUTH_MESSAGES.passwordTooWeakHint}`;
}

export interface PasswordJudgement {
  /** zxcvbn's score, 0 (guessed at once) to 4 (very hard to guess). */
  score: number;
  /** Why the password is refused, in words for the user; null when it is accepted. */
  problem: string | null;
}

/** zxcvbn's verdict on a password for the account with this email (the length is not checked). */
export async function judgePassword(password: string, email: string): Promise<PasswordJudgement> {
  const result = (await estimator()).check(password, personalWords(email));
  return { score: result.score, problem: result.score >= MIN_PASSWORD_SCORE ? null : weakPasswordMessage(result.feedback) };
}

/**
 * Why a new password may not be used (too short, too long or too easy to guess), or null when
 * it may. The length is checked first, so an overlong password never reaches zxcvbn.
 */
export async function newPasswordProblem(password: string, email: string): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return AUTH_MESSAGES.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return AUTH_MESSAGES.passwordTooLong;
  return (await judgePassword(password, email)).problem;
}
