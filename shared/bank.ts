/** US bank numbers as the payout form and the server check them (spec section 9). */

/** Bank numbers as people type them ('021 000-021'), without the spaces and dashes. */
export function bankDigits(value: string): string {
  return value.replace(/[\s-]/g, '');
}

/** An ABA routing number: 9 digits whose weighted sum (3, 7, 1, ...) is a multiple of 10, so a mistyped digit is caught. */
export function abaChecksumValid(routingNumber: string): boolean {
  if (!/^[0-9]{9}$/.test(routingNumber)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(routingNumber[i]) * weights[i]!;
  return sum % 10 === 0;
}
