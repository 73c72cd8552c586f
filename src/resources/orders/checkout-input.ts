/**
 * What the checkout takes and answers (checkout.ts): ticket lines with codes, and the amounts computed from the records.
 */
import { Type, type Static } from '@sinclair/typebox';
import { integerId, unprocessable } from '../../jsonapi/index.js';
import type { LineInput } from './amounts.js';

const IdLike = Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[0-9]{1,10}$' })], {
  description: 'an id, as a number or a string of digits',
});
const CodeLike = Type.Union([Type.Null(), Type.Integer({ minimum: 1 }), Type.String({ maxLength: 100 })], {
  description: 'the id of the code, or the code itself',
});

export const CheckoutInput = Type.Object(
  {
    tickets: Type.Array(
      Type.Object(
        {
          id: IdLike,
          quantity: Type.Optional(
            Type.Integer({ minimum: 0, maximum: 1000, description: 'how many of this ticket (default 1)' }),
          ),
          price: Type.Optional(
            Type.Union([Type.Null(), Type.Number({ minimum: 0, maximum: 9_999_999_999 })], {
              description: "a donation ticket's amount; ignored for other tickets (their price is the ticket's)",
            }),
          ),
          quantity_discount: Type.Optional(
            Type.Union([Type.Null(), Type.Integer()], {
              description: 'ignored: the server counts the discounted units',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 100, description: 'the ticket lines, each ticket once' },
    ),
    'discount-code': Type.Optional(CodeLike),
    discount_code: Type.Optional(CodeLike),
    'access-code': Type.Optional(CodeLike),
    access_code: Type.Optional(CodeLike),
    amount: Type.Optional(
      Type.Union([Type.Null(), Type.Number()], {
        description:
          'refused unless null: the amount is computed by the server (organizers give reductions as discount codes)',
      }),
    ),
    'discount-verify': Type.Optional(Type.Boolean({ description: 'ignored: a used-up code never lowers a price' })),
    discount_verify: Type.Optional(Type.Boolean({ description: 'ignored' })),
  },
  { $id: 'CheckoutInput', additionalProperties: false },
);
export type CheckoutInput = Static<typeof CheckoutInput>;

const Money = (description: string) => Type.Number({ minimum: 0, description });
export const OrderAmountSchema = Type.Object(
  {
    tax: Type.Union([
      Type.Null(),
      Type.Object({
        included: Type.Boolean({ description: 'the prices include the tax' }),
        amount: Money('the tax of the order'),
        percent: Type.Number({ description: 'the rate' }),
        name: Type.Union([Type.String(), Type.Null()]),
      }),
    ]),
    sub_total: Money('the lines, after discounts and with fees, before an added tax'),
    total: Money('what the order costs'),
    discount: Money('the sum of the discounts'),
    tickets: Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        price: Money('the price of one'),
        quantity: Type.Integer({ minimum: 0 }),
        discount: Type.Union([
          Type.Null(),
          Type.Object({
            code: Type.String(),
            percent: Type.Number(),
            amount: Money('the reduction of one'),
            total: Money('the reduction of the line'),
            type: Type.String({ description: 'amount or percent' }),
            warning: Type.Optional(Type.String()),
          }),
        ]),
        ticket_fee: Money("the platform's service fee on the line"),
        sub_total: Money('the line, after its discount, with its fee'),
        ticket_tax: Money('the tax of one, before the discount'),
        discounted_tax: Money('the tax of one, after the discount'),
        discounted_quantity: Type.Integer({ minimum: 0, description: 'how many the discount lowers' }),
      }),
    ),
  },
  { $id: 'OrderAmount' },
);

export type Line = LineInput & { index: number };

/** The lines of an input: each ticket once, with its quantity (default 1). */
export function linesOf(input: CheckoutInput): Line[] {
  const seen = new Set<number>();
  return input.tickets.map((t, index) => {
    // The reference's example and older clients send numbers, the front end strings of digits.
    const id = integerId(String(t.id));
    if (id === undefined) throw unprocessable('Not a ticket id', `/tickets/${index}/id`);
    if (seen.has(id)) throw unprocessable(`Ticket ${id} is named twice`, `/tickets/${index}/id`);
    seen.add(id);
    return { id, quantity: t.quantity ?? 1, price: t.price ?? null, index };
  });
}

export const codeOf = (a: string | number | null | undefined, b: string | number | null | undefined) => {
  const code = a ?? b;
  return code === null || code === undefined || code === '' ? undefined : String(code);
};

export function refuseAmount(input: CheckoutInput) {
  if (input.amount !== undefined && input.amount !== null)
    throw unprocessable(
      'The amount of an order is computed by the server from its tickets, codes, tax and fees; give a reduction as a discount code',
      '/amount',
    );
}
