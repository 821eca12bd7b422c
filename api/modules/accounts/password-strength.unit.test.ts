/**
 * The strength check against passwords people actually choose. The weak corpus is generated
 * here from the patterns password crackers try first (common passwords and their usual
 * decorations, keyboard walks, repeats and sequences, dates, names and words with years, and what
 * the account itself gives away); the strong one from a seeded random source, so every run judges
 * the same passwords.
 */
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_MIN_LENGTH } from '../../../shared/schemas/auth.ts';
import { judgePassword, MIN_PASSWORD_SCORE, newPasswordProblem, personalWords, weakPasswordMessage } from './password-strength.ts';
import { seededRandom } from '../../test/seeded-random.ts';

const EMAIL = 'shopper@example.com';

const COMMON = [
  'password', 'iloveyou', 'sunshine', 'princess', 'football', 'baseball', 'welcome', 'dragon', 'monkey', 'letmein',
  'shadow', 'master', 'superman', 'batman', 'trustno1', 'whatever', 'freedom', 'computer', 'starwars', 'secret',
  'summer', 'winter', 'hello', 'charlie', 'michael', 'jennifer', 'jordan', 'pokemon', 'cheese', 'chocolate',
  'butterfly', 'soccer', 'hockey', 'killer', 'ginger', 'flower', 'cookie', 'orange', 'purple', 'pepper',
];
const NAMES = ['john', 'michael', 'jessica', 'ashley', 'daniel', 'sarah', 'david', 'emily', 'james', 'olivia', 'robert', 'maria'];
const WORDS = ['football', 'summer', 'monkey', 'dragon', 'soccer', 'hockey', 'yankees', 'liverpool', 'chelsea', 'mustang', 'diamond', 'spring'];
const YEARS = [1985, 1990, 1999, 2000, 2010, 2023, 2024];

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const L33T: Record<string, string> = { a: '@', o: '0', e: '3', i: '1', s: '$', t: '7' };
const l33t = (s: string) => [...s].map((c) => L33T[c] ?? c).join('');

interface Case {
  kind: string;
  password: string;
  email: string;
}

function weakCorpus(): Case[] {
  const cases: Case[] = [];
  const seen = new Set<string>();
  const add = (kind: string, passwords: string[], email = EMAIL) => {
    for (const password of passwords) {
      if (seen.has(password)) continue;
      seen.add(password);
      cases.push({ kind, password, email });
    }
  };
  // Common passwords and the decorations sites' rules push people to.
  add('common', COMMON.filter((w) => w.length >= PASSWORD_MIN_LENGTH));
  add('common + digits', COMMON.flatMap((w) => [`${w}1`, `${w}123`, `${w}2024`].filter((p) => p.length >= PASSWORD_MIN_LENGTH)));
  add('common + symbol', COMMON.flatMap((w) => [`${w}!`, `${w}1!`].filter((p) => p.length >= PASSWORD_MIN_LENGTH)));
  add('capitalised', COMMON.flatMap((w) => [`${capitalise(w)}1`, `${capitalise(w)}123!`].filter((p) => p.length >= PASSWORD_MIN_LENGTH)));
  add('l33t', ['P@ssw0rd', 'P@ssw0rd1', 'P@ssw0rd1!', 'p@$$w0rd', 'Passw0rd!', 'L3tm3in!', 'Sup3rm@n', 'B@seb@ll1', 'F00tb@ll!', 'Dr@g0n123', 'M0nk3y123', 'Pr1nc3ss!', 'Sunsh1n3!', '1l0v3y0u!', 'W3lc0me1!', 'Tru$tno1!']);
  add('l33t generated', COMMON.filter((w) => w.length >= 6).slice(0, 20).map((w) => `${capitalise(l33t(w))}1`).filter((p) => p.length >= PASSWORD_MIN_LENGTH));
  // Keyboard walks.
  add('keyboard', [
    'qwerty123', 'qwertyuiop', 'Qwerty123!', '1q2w3e4r', '1q2w3e4r5t', 'zxcvbnm1', 'zxcvbnm123', 'asdfghjkl', 'asdf1234', 'qwer1234',
    '1qaz2wsx', '!QAZ2wsx', 'zaq12wsx', 'qazwsx123', 'poiuytrewq', 'mnbvcxz1', 'qweasdzxc', '1qazxsw2', 'asdfjkl;', 'q1w2e3r4t5',
    'qwertyui', '123qweasd', 'zxcvasdf', 'Asdfgh12', '1234qwer',
  ]);
  // Repeated and sequential characters.
  add('repeat', ['aaaaaaaa', '11111111', '00000000', 'zzzzzzzzzz', 'abcabcabc', 'ababababab', '12121212', 'xoxoxoxo', 'aaaa1111', 'passpass', 'hahahaha', '!!!!!!!!']);
  add('sequence', ['12345678', '123456789', '1234567890', '87654321', '98765432', 'abcdefgh', 'abcdefghi', 'ABCDEFGH', 'abcd1234', 'abc12345', 'qrstuvwx', 'a1b2c3d4', '13579246', '01234567', '1234abcd']);
  // Dates, as written and as birthdays.
  const dates: string[] = [];
  for (const [y, m, d] of [[1990, 1, 1], [1985, 12, 25], [1999, 7, 4], [2001, 3, 15], [1978, 11, 30], [2010, 6, 9]] as const) {
    const dd = String(d).padStart(2, '0');
    const mm = String(m).padStart(2, '0');
    dates.push(`${dd}${mm}${y}`, `${y}${mm}${dd}`, `${mm}${dd}${y}`, `${mm}/${dd}/${y}`, `${dd}.${mm}.${y}`);
  }
  add('date', [...dates, '19901231', '01011990', '31121999']);
  // Names and words with a year, a digit or a symbol.
  add('name + year', NAMES.flatMap((n, i) => [`${n}${YEARS[i % YEARS.length]}`, `${capitalise(n)}${YEARS[(i + 3) % YEARS.length]}`]));
  add('name + digits', NAMES.flatMap((n) => [`${n}123`, `${capitalise(n)}1234`].filter((p) => p.length >= PASSWORD_MIN_LENGTH)));
  add('word + year', WORDS.flatMap((w) => YEARS.slice(-3).map((y) => `${w}${y}`)));
  add('word + word', ['iloveyou2', 'letmeinnow', 'blueberry', 'loveyou123', 'mypassword', 'newpassword', 'secretpass']);
  // What the account gives away: its email, its owner's name and the site.
  add('own email', ['johnsmith1', 'johnsmith', 'JohnSmith1!', 'smithjohn1', 'john.smith', 'john.smith1', 'johnsmith2024', 'Smith1234'], 'john.smith@example.com');
  add('own email', ['mariagarcia', 'garcia1985', 'MariaG2024', 'maria_garcia'], 'maria_garcia85@example.com');
  add('own email', ['kevin.lee9', 'kevinlee123', 'Kevinlee!'], 'kevin-lee+shop@example.com');
  add('site', ['framemerch', 'framemerch1', 'FrameMerch1', 'framemerch123', 'FrameMerch2024', 'framemerch!', 'merchframe1', 'Fr@meMerch1']);
  return cases;
}

const PASSPHRASE_WORDS = [
  'walrus', 'quarry', 'lantern', 'osprey', 'velvet', 'cobalt', 'thimble', 'glacier', 'parsnip', 'marble', 'juniper', 'saddle',
  'harbor', 'nimbus', 'tundra', 'falcon', 'pretzel', 'kettle', 'orchid', 'meadow', 'sprocket', 'canyon', 'biscuit', 'ember',
  'lagoon', 'pebble', 'rhubarb', 'trellis', 'compass', 'basalt', 'mosaic', 'quiver', 'zephyr', 'cactus', 'anchor', 'fjord',
];
const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_!?';

function strongCorpus(): Case[] {
  const random = seededRandom(20_240_611);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const cases: Case[] = [];
  for (let i = 0; i < 12; i++) {
    const words = new Set<string>();
    while (words.size < 4) words.add(pick(PASSPHRASE_WORDS));
    cases.push({ kind: 'passphrase', password: [...words].join(pick([' ', '-', '.', ''])), email: EMAIL });
  }
  for (let i = 0; i < 12; i++) {
    const length = 12 + (i % 6);
    cases.push({ kind: 'random', password: Array.from({ length }, () => pick([...ALPHABET])).join(''), email: EMAIL });
  }
  return cases;
}

describe('personalWords', () => {
  it('gives the email, its local part whole, without digits, run together and split, and the site', () => {
    expect(personalWords(' John.Smith+shop@Example.com ')).toEqual([
      'john.smith+shop@example.com',
      'john.smith+shop',
      'johnsmithshop',
      'john',
      'smith',
      'shop',
      'framemerch',
      'frame',
      'merch',
    ]);
    expect(personalWords('maria_garcia85@example.com')).toEqual([
      'maria_garcia85@example.com',
      'maria_garcia85',
      'maria_garcia',
      'mariagarcia',
      'maria',
      'garcia',
      'framemerch',
      'frame',
      'merch',
    ]);
  });
});

describe('weakPasswordMessage', () => {
  it("leads with the refusal and gives zxcvbn's warning and first suggestion", () => {
    expect(weakPasswordMessage({ warning: 'Dates are easy to guess.', suggestions: ['Avoid dates and years that are associated with you.', 'Another.'] })).toBe(
      'This password is too easy to guess. Dates are easy to guess. Avoid dates and years that are associated with you.',
    );
    expect(weakPasswordMessage({ warning: null, suggestions: ['Add more words that are less common.'] })).toBe(
      'This password is too easy to guess. Add more words that are less common.',
    );
  });

  it('says something general when zxcvbn has no feedback', () => {
    expect(weakPasswordMessage({ warning: null, suggestions: [] })).toBe(`${AUTH_MESSAGES.passwordTooWeak} ${AUTH_MESSAGES.passwordTooWeakHint}`);
    expect(weakPasswordMessage({ warning: '', suggestions: [] })).toBe('This password is too easy to guess. Add more words or characters that are hard to guess.');
  });
});

describe('newPasswordProblem', () => {
  const weak = weakCorpus();
  const strong = strongCorpus();

  it('has a weak corpus of 300+ passwords of many kinds, all long enough to pass the length rule', () => {
    expect(weak.length).toBeGreaterThanOrEqual(300);
    expect(new Set(weak.map((c) => c.password)).size).toBe(weak.length);
    expect(new Set(weak.map((c) => c.kind)).size).toBeGreaterThanOrEqual(15);
    expect(weak.filter((c) => c.password.length < PASSWORD_MIN_LENGTH)).toEqual([]);
    expect(strong.length).toBeGreaterThanOrEqual(20);
  });

  it('refuses every weak password, saying why', async () => {
    const accepted: string[] = [];
    for (const { kind, password, email } of weak) {
      const problem = await newPasswordProblem(password, email);
      if (problem === null) accepted.push(`${kind}: ${password} (${(await judgePassword(password, email)).score})`);
      else expect(problem.startsWith(`${AUTH_MESSAGES.passwordTooWeak} `), password).toBe(true);
    }
    expect(accepted).toEqual([]);
  });

  it('accepts random passphrases of four unrelated words and random strings of 12+ characters', async () => {
    const refused: string[] = [];
    for (const { kind, password, email } of strong) {
      const { score, problem } = await judgePassword(password, email);
      if (problem !== null || score < MIN_PASSWORD_SCORE) refused.push(`${kind}: ${password} (${score}) ${problem}`);
      expect(await newPasswordProblem(password, email)).toBeNull();
    }
    expect(refused).toEqual([]);
  });

  /**
   * zxcvbn's limit, kept in view: it adds at least 10^4 guesses for each pattern after the first,
   * so three patterns, or a name below the 250 most used passwords followed by a brute-forced
   * year and symbol, reach the 10^8 guesses of score 3.
   */
  it('accepts, at score 3 exactly, a few decorated names and phrases (the limit of zxcvbn at score 3)', async () => {
    for (const password of ['John2000!', 'Emily2000!', 'Maria1985!', 'ilovemymom']) {
      expect(await judgePassword(password, EMAIL), password).toEqual({ score: 3, problem: null });
    }
  });

  it('reads its reason from zxcvbn in English', async () => {
    expect(await newPasswordProblem('password123', EMAIL)).toBe('This password is too easy to guess. This is a commonly used password. Add more words that are less common.');
    expect(await newPasswordProblem('framemerch1', EMAIL)).toMatch(/^This password is too easy to guess\. There should not be any personal or page related data\./);
  });

  it('keeps the length rules and their messages', async () => {
    expect(await newPasswordProblem('Zq9!', EMAIL)).toBe(AUTH_MESSAGES.passwordTooShort);
    expect(await newPasswordProblem('walrus quarry lantern osprey '.repeat(7).slice(0, 201), EMAIL)).toBe(AUTH_MESSAGES.passwordTooLong);
    expect(await newPasswordProblem('walrus quarry lantern osprey '.repeat(7).slice(0, 200), EMAIL)).toBeNull();
  });
});
