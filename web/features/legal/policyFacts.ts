import { CHECKOUT_COUNTRIES, CONTACT_EMAIL, CREATOR_SHARE_PERCENT } from '../../../shared/constants.ts';

/** The figures both legal pages quote, kept in one place so the two never disagree (spec sections 1 and 9). */
export const POLICY = {
  effectiveDate: '1 January 2025',
  contactEmail: CONTACT_EMAIL,
  orderRetention: '7 years',
  deletedAccountRemoval: '30 days',
  backupRetention: '90 days',
  refundWindow: '30 days',
  shippingTime: '3-5 business days',
  creatorShare: `${CREATOR_SHARE_PERCENT}%`,
  houseShare: `${100 - CREATOR_SHARE_PERCENT}%`,
  payoutMinimum: '$50',
  shippingCountries: CHECKOUT_COUNTRIES.join(', '),
} as const;
