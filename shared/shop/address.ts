/**
 * A shipping address as the lines of a label, from the fields the print shops read (address1,
 * address2, city, state_code, zip, country_code): street, the second line when there is one,
 * city with state and postal code, country.
 */
import { COUNTRY_NAMES, type CheckoutCountry } from '../schemas/checkout.ts';

export function addressLines(address: Readonly<Record<string, string>> | null, country: string): string[] {
  if (!address?.address1) return [];
  const code = address.country_code ?? country;
  const place = [address.city, [address.state_code, address.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [address.address1, address.address2, place, COUNTRY_NAMES[code as CheckoutCountry] ?? code].filter((line): line is string => Boolean(line));
}
