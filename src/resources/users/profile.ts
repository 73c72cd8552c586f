import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Text, type AttributeSpec } from '../../jsonapi/index.js';

const text = (column: string, maxLength: number, description: string): AttributeSpec => ({
  column,
  schema: Nullable(Text(maxLength, { description })),
});
const flag = (column: string, description: string): AttributeSpec => ({
  column,
  schema: Type.Boolean({ description }),
});

/**
 * The profile members the web front end's user model carries beyond the account (open-event-frontend
 * app/models/user.js): preferences, billing details for invoices, and the flags administrators set.
 */
export const profileAttributes: Record<string, AttributeSpec> = {
  'language-prefrence': text(
    'languagePrefrence',
    35,
    'preferred language (a code such as `en`); spelled as the web front end spells it',
  ),
  company: text('company', 255, 'company, for invoices'),
  'billing-contact-name': text('billingContactName', 255, 'billing contact, for invoices'),
  'billing-phone': text('billingPhone', 64, 'billing phone number'),
  'billing-country': text('billingCountry', 255, 'billing country'),
  'billing-state': text('billingState', 255, 'billing state or region'),
  'billing-city': text('billingCity', 255, 'billing city'),
  'billing-address': text('billingAddress', 1000, 'billing street address'),
  'billing-zip-code': text('billingZipCode', 64, 'billing postal code'),
  'billing-tax-info': text('billingTaxInfo', 1000, 'tax number or other tax details'),
  'billing-additional-info': text('billingAdditionalInfo', 10_000, 'anything else invoices should say'),
  'is-profile-public': flag(
    'isProfilePublic',
    'others may see what the user follows (favourite sessions); off by default',
  ),
  'is-blocked': flag(
    'isBlocked',
    'blocked by an administrator (spam): the account cannot log in and its tokens end; only administrators may change it',
  ),
  'is-sales-admin': flag('isSalesAdmin', 'sales administrator; only administrators may change it'),
  'is-marketer': flag('isMarketer', 'marketer; only administrators may change it'),
  'last-accessed-at': {
    column: 'lastLoginAt',
    schema: Nullable(DateTime({ description: 'the last login; null before the first' })),
    readOnly: true,
  },
};
