import { readFileSync } from 'node:fs';
import path from 'node:path';

let list: Set<string> | null = null;

/** True for a password on the shipped list of the most common ones (compared without case). */
export function isCommonPassword(password: string): boolean {
  list ??= new Set(
    readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.toLowerCase()),
  );
  return list.has(password.toLowerCase());
}
