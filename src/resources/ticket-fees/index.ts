import { Type } from '@sinclair/typebox';
import { ticketFees } from '../../../db/schema/index.js';
import { defineResource, unprocessable, type AttributeSpec, type Row } from '../../jsonapi/index.js';
import { flexibleNumber } from '../attributes.js';
import { staffOnly } from '../staff-written.js';

/** The country of the fee that applies everywhere: the front end's "Global Settings" row. */
export const GLOBAL = 'global';

/** A fee amount; null (an input the administrator cleared) is 0, the column's default. */
function fee(column: string, schema: ReturnType<typeof Type.Number>): AttributeSpec {
  const number = flexibleNumber({ column, schema: { ...schema, default: 0 } });
  return {
    ...number,
    input: Type.Union([number.input!, Type.Null()], { description: `${schema.description}; null is 0` }),
    write: (value, wire) => (value === null ? { [column]: 0 } : number.write!(value, wire)),
  };
}

const CURRENCY = Type.String({ pattern: '^[A-Z]{3}$', maxLength: 3, description: 'ISO 4217 code' });

/** A fee for a country needs a currency; only the global one may go without (the front end sends none for it). */
function checkCurrency(values: Record<string, unknown>, current?: Row) {
  const country = 'country' in values ? values.country : current?.country;
  const currency = 'currency' in values ? values.currency : current?.currency;
  if (currency === '' && country !== GLOBAL)
    throw unprocessable(
      `A fee for a country needs a currency (only the "${GLOBAL}" fee may go without)`,
      '/data/attributes/currency',
    );
}

export const ticketFeeResource = defineResource({
  type: 'ticket-fee',
  path: 'ticket-fees',
  name: 'TicketFee',
  tag: 'Ticket fees',
  description:
    'The service fee the platform takes of ticket sales, per currency and country (the admin settings page ' +
    '"Ticket Fees"): a percent of each order, at most maximum-fee. One per currency and country (a second one is ' +
    '409); the country "global" is the fee of the front end\'s global settings, which it saves without a currency. ' +
    'Administrators only, for every operation (401 without a login, 403 for anyone else): orders read the fees ' +
    'on the server.',
  table: ticketFees,
  attributes: {
    currency: {
      column: 'currency',
      schema: Type.String({
        maxLength: 3,
        description: 'ISO 4217 code of the prices the fee applies to; empty for the global fee when saved without one',
      }),
      input: Type.Union([CURRENCY, Type.Literal(''), Type.Null()], {
        description: 'ISO 4217 code; null or empty only for the country "global"',
      }),
      write: (value) => ({ currency: value ?? '' }),
    },
    country: {
      column: 'country',
      schema: Type.String({
        minLength: 1,
        maxLength: 255,
        default: GLOBAL,
        description:
          'the country of the events the fee applies to, as the front end names it (a code); "global" when absent',
      }),
    },
    'service-fee': fee(
      'serviceFee',
      Type.Number({ minimum: 0, maximum: 100, description: 'percent of an order, 0 to 100' }),
    ),
    'maximum-fee': fee(
      'maximumFee',
      Type.Number({ minimum: 0, maximum: 9_999_999_999.99, description: 'the most the fee takes of an order' }),
    ),
  },
  policy: staffOnly,
  hooks: {
    beforeCreate(_ctx, values) {
      values.country ??= GLOBAL;
      values.currency ??= '';
      checkCurrency(values);
    },
    beforeUpdate: (_ctx, row, values) => checkCurrency(values, row),
  },
  unique: {
    ticket_fees_currency_country_key: {
      pointer: '/data/attributes/currency',
      detail: 'There is a fee for this currency and country already',
    },
  },
});
