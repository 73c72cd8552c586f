/**
 * What an order costs, computed by the server from its records only (app/api/helpers/order.py,
 * calculate_order_amount, of the reference): each ticket line's price (the ticket's; a donation's amount within
 * the ticket's range), a discount code's reduction on the units it still covers, the platform's service fee on
 * lines whose fee is not absorbed, then the event's tax on the whole (added, or included in the prices). Amounts
 * are kept in cents, so that no sum drifts; a client's amount is never read.
 */
import { unprocessable } from '../../jsonapi/index.js';

/** A ticket line as the buyer asks for it. */
export interface LineInput {
  id: number;
  quantity: number;
  /** A donation's amount; ignored for other tickets. */
  price?: number | null;
  /** How many units the discount code lowers (an order's holders it applied to); default: what the code has left. */
  discountedUnits?: number;
  /** The price of one as it was reserved (an order's holders keep theirs when the ticket's changes). */
  reserved?: number;
}

/** The stored ticket a line names. */
export interface PricedTicket {
  id: number;
  name: string;
  type: string;
  price: number | null;
  minPrice: number | null;
  maxPrice: number | null;
  isFeeAbsorbed: boolean;
}

/** A discount code that applies to the order, with the units it may still lower. */
export interface AppliedDiscount {
  id: number;
  code: string;
  type: 'amount' | 'percent';
  value: number;
  ticketIds: ReadonlySet<number>;
  /** Units the code may still lower (null: no limit). */
  remaining: number | null;
  /** How many of its tickets an order must hold for the code to apply (create-order checks it). */
  minQuantity: number;
  maxQuantity: number | null;
  /** Who made the code (its marketer): the order it lowers names them. */
  marketerId?: number | null;
}

export interface Pricing {
  tax?: { name: string | null; rate: number; included: boolean };
  fee?: { serviceFee: number; maximumFee: number };
  discount?: AppliedDiscount;
}

export interface LineAmount {
  id: number;
  name: string;
  price: number;
  quantity: number;
  discount: { code: string; percent: number; amount: number; total: number; type: string; warning?: string } | null;
  ticket_fee: number;
  sub_total: number;
  ticket_tax: number;
  discounted_tax: number;
  /** Units the discount lowers (the holders marked is-discount-applied). */
  discounted_quantity: number;
}

export interface OrderAmount {
  tax: { included: boolean; amount: number; percent: number; name: string | null } | null;
  sub_total: number;
  total: number;
  discount: number;
  tickets: LineAmount[];
}

const cents = (units: number) => Math.round(units * 100);
const units = (c: number) => Math.round(c) / 100;

/** The price of one unit of a line, in cents: 0 for free tickets, the donation within its range, else the ticket's. */
export function unitPrice(ticket: PricedTicket, line: Pick<LineInput, 'price'>, index: number): number {
  if (ticket.type === 'free') return 0;
  if (ticket.type !== 'donation') return cents(ticket.price ?? 0);
  const min = ticket.minPrice ?? 0;
  const max = ticket.maxPrice ?? Number.MAX_SAFE_INTEGER;
  const given = line.price;
  if (typeof given !== 'number' || !Number.isFinite(given) || given < min || given > max || given <= 0)
    throw unprocessable(
      `The amount of the donation ticket "${ticket.name}" must be between ${min} and ${ticket.maxPrice ?? 'any'}`,
      `/tickets/${index}/price`,
    );
  return cents(given);
}

/**
 * The amounts of an order of `lines` (each naming a ticket of `tickets`), with the event's tax, the platform's fee
 * and a discount code. Pure: the records are read by the caller.
 */
export function priceOrder(
  lines: LineInput[],
  tickets: ReadonlyMap<number, PricedTicket>,
  pricing: Pricing,
): OrderAmount {
  const { tax, fee, discount } = pricing;
  let discountLeft = discount ? (discount.remaining ?? Number.MAX_SAFE_INTEGER) : 0;
  // Units asked of the code's tickets beyond what it may still lower.
  let undiscounted = 0;
  let totalCents = 0;
  let discountCents = 0;
  const rate = tax ? tax.rate / 100 : 0;
  const taxOf = (priceCents: number) =>
    tax ? (tax.included ? priceCents - priceCents / (1 + rate) : priceCents * rate) : 0;
  const out: LineAmount[] = lines.map((line, index) => {
    const ticket = tickets.get(line.id)!;
    const price = line.reserved !== undefined ? cents(line.reserved) : unitPrice(ticket, line, index);
    let unitDiscount = 0;
    let discounted = 0;
    let info: LineAmount['discount'] = null;
    if (discount?.ticketIds.has(ticket.id) && ticket.type !== 'free' && price > 0 && line.discountedUnits !== 0) {
      unitDiscount =
        discount.type === 'amount'
          ? Math.min(cents(discount.value), price)
          : Math.round((price * discount.value) / 100);
      if (line.discountedUnits !== undefined) discounted = Math.min(line.quantity, line.discountedUnits);
      else {
        discounted = Math.min(line.quantity, discountLeft);
        discountLeft -= discounted;
        undiscounted += line.quantity - discounted;
      }
      info = {
        code: discount.code,
        percent: Math.round((unitDiscount / price) * 10000) / 100,
        amount: units(unitDiscount),
        total: units(unitDiscount * discounted),
        type: discount.type,
      };
    }
    const gross = price * line.quantity;
    const serviceFee =
      fee && !ticket.isFeeAbsorbed ? Math.min(Math.round((gross * fee.serviceFee) / 100), cents(fee.maximumFee)) : 0;
    const lineDiscount = unitDiscount * discounted;
    const subTotal = gross - lineDiscount + serviceFee;
    totalCents += subTotal;
    discountCents += lineDiscount;
    return {
      id: ticket.id,
      name: ticket.name,
      price: units(price),
      quantity: line.quantity,
      discount: info,
      ticket_fee: units(serviceFee),
      sub_total: units(subTotal),
      ticket_tax: units(Math.round(taxOf(price))),
      discounted_tax: units(Math.round(taxOf(price - unitDiscount))),
      discounted_quantity: discounted,
    };
  });
  if (undiscounted > 0)
    for (const line of out)
      if (line.discount) line.discount.warning = 'Your order is not fully discounted: the discount code is used up';
  let taxCents = 0;
  if (tax) {
    taxCents = Math.round(taxOf(totalCents));
    if (!tax.included) totalCents += taxCents;
  }
  const subTotalCents = tax && !tax.included ? totalCents - taxCents : totalCents;
  return {
    tax: tax ? { included: tax.included, amount: units(taxCents), percent: tax.rate, name: tax.name } : null,
    sub_total: units(subTotalCents),
    total: units(totalCents),
    discount: units(discountCents),
    tickets: out,
  };
}
