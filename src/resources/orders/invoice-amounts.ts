import { type LineInput, type PricedTicket, priceOrder } from './amounts.js';

/**
 * The lines and totals of an order, from its ticket holders, its discount code, the event's tax and the platform's
 * ticket fee: the arithmetic of the reference's `calculate_order_amount` (app/api/helpers/order.py), kept in one
 * pure function so that the invoice and the order computation agree.
 */

/** One ticket holder of the order, with what the ticket is. */
export interface AmountHolder {
  ticketId: number;
  ticketName: string;
  /** free, paid or donation: a free ticket costs nothing and takes no discount. */
  ticketType: string;
  /** The organizer pays the platform's fee for this ticket; the buyer does not. */
  isFeeAbsorbed: boolean;
  /** What the ticket costs this holder before any discount (the amount given, for a donation). */
  price: number | null;
  isDiscountApplied: boolean;
}

export interface AmountDiscount {
  code: string;
  type: 'amount' | 'percent';
  value: number;
}

export interface AmountTax {
  name: string;
  /** Percent. */
  rate: number;
  /** The prices include the tax; otherwise it is added to the total. */
  included: boolean;
}

/** The platform's service fee: a percent of each ticket line, at most `maximumFee` per line. */
export interface AmountFee {
  serviceFee: number;
  maximumFee: number;
}

/** The holders of one ticket at one price. */
export interface TicketLine {
  ticketId: number;
  name: string;
  /** Unit price before the discount. */
  price: number;
  quantity: number;
  /** How many of them the discount code lowers. */
  discountedQuantity: number;
  /** Per discounted ticket; null where no discount applies. */
  discount: { code: string; type: 'amount' | 'percent'; percent: number; amount: number; total: number } | null;
  /** The platform's fee on the line, where the buyer pays it. */
  fee: number;
  /** Tax in one ticket at its full price, and at its discounted price. */
  tax: number;
  discountedTax: number;
  /** What the line costs: the fee and the tickets, after discounts, before a tax that is added. */
  subTotal: number;
}

export interface OrderAmounts {
  lines: TicketLine[];
  /** The lines together, before a tax that is added. */
  subTotal: number;
  /** All discounts together. */
  discount: number;
  tax: (AmountTax & { amount: number }) | null;
  total: number;
}

/** An amount rounded to whole cents, still in currency units (amounts.ts counts in integer cents instead). */
export const roundToCents = (value: number) => Math.round((value + Number.EPSILON) * 100) / 100;

/**
 * The lines and totals of an order's holders: the holders of one ticket at one price (donations differ) are a line,
 * priced by the checkout's priceOrder (./amounts.ts), so that an invoice adds up to the amount the order stored; the
 * units a discount lowers are the holders marked `is-discount-applied`, as the order recorded them.
 */
export function orderAmounts(
  holders: AmountHolder[],
  { discount, tax, fee }: { discount: AmountDiscount | null; tax: AmountTax | null; fee: AmountFee | null },
): OrderAmounts {
  const groups = new Map<string, { line: LineInput; ticket: PricedTicket }>();
  for (const holder of holders) {
    const price = holder.ticketType === 'free' ? 0 : (holder.price ?? 0);
    const key = `${holder.ticketId}:${roundToCents(price)}`;
    const group = groups.get(key) ?? {
      line: { id: holder.ticketId, quantity: 0, discountedUnits: 0, reserved: price },
      ticket: {
        id: holder.ticketId,
        name: holder.ticketName,
        type: holder.ticketType,
        price,
        minPrice: null,
        maxPrice: null,
        isFeeAbsorbed: holder.isFeeAbsorbed,
      },
    };
    group.line.quantity++;
    if (holder.isDiscountApplied) group.line.discountedUnits!++;
    groups.set(key, group);
  }
  const all = [...groups.values()];
  // priceOrder names its tickets by id: a ticket at two prices is two lines of one ticket.
  const tickets = new Map(all.map((g) => [g.ticket.id, g.ticket]));
  const priced = priceOrder(
    all.map((g) => g.line),
    tickets,
    {
      ...(tax ? { tax } : {}),
      ...(fee ? { fee } : {}),
      ...(discount
        ? {
            discount: {
              id: 0,
              ...discount,
              ticketIds: new Set(holders.map((h) => h.ticketId)),
              remaining: null,
              minQuantity: 0,
              maxQuantity: null,
            },
          }
        : {}),
    },
  );
  return {
    lines: priced.tickets.map((l) => ({
      ticketId: l.id,
      name: l.name,
      price: l.price,
      quantity: l.quantity,
      discountedQuantity: l.discounted_quantity,
      discount: l.discount && {
        code: l.discount.code,
        type: l.discount.type as AmountDiscount['type'],
        percent: l.discount.percent,
        amount: l.discount.amount,
        total: l.discount.total,
      },
      fee: l.ticket_fee,
      tax: l.ticket_tax,
      discountedTax: l.discounted_tax,
      subTotal: l.sub_total,
    })),
    subTotal: priced.sub_total,
    discount: priced.discount,
    tax: tax && priced.tax ? { ...tax, amount: priced.tax.amount } : null,
    total: priced.total,
  };
}
