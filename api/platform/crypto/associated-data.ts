/**
 * The associated data each kind of stored sealed value is bound to (sealed-values.ts): what
 * seals a value and what opens it (the writer, the reader, and key rotation's walk over every
 * sealed column, repository.ts SEALED_COLUMNS) must derive it by the same rule, so each rule is
 * written once, here. platform/ imports no integration, so the integrations that seal import
 * their rule from this file.
 */

/** A user's bank details (users.ach_*_encrypted): the user id. */
export function userBankDetailsSealedFor(userId: string): string {
  return userId;
}

/** A NACHA entry's receiver numbers (nacha_entries.destination_sealed): its trace number. */
export function nachaDestinationSealedFor(traceNumber: string): string {
  return `nacha:${traceNumber}`;
}
