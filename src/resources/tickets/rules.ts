import { unprocessable, type Row } from '../../jsonapi/index.js';

/** A column's value as the write would leave the record: the written one, else the stored one. */
const after = (values: Record<string, unknown>, current: Row | undefined, key: string) =>
  key in values ? values[key] : current?.[key];

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : undefined);

/**
 * The ticket rules of the reference (and the spec's error table), judged on the ticket as the write
 * would leave it, so that an update cannot break them by sending one side only.
 */
export function checkTicket(values: Record<string, unknown>, current?: Row) {
  const get = (key: string) => after(values, current, key);
  const starts = get('salesStartsAt');
  const ends = get('salesEndsAt');
  if (starts instanceof Date && ends instanceof Date && ends <= starts)
    throw unprocessable('sales-ends-at should be after sales-starts-at', '/data/attributes/sales-ends-at');
  const minOrder = num(get('minOrder'));
  const maxOrder = num(get('maxOrder'));
  const quantity = num(get('quantity'));
  if (minOrder !== undefined && maxOrder !== undefined && maxOrder < minOrder)
    throw unprocessable('max-order should be greater than min-order', '/data/attributes/max-order');
  if (quantity !== undefined && quantity <= 0)
    throw unprocessable('quantity should be greater than 0', '/data/attributes/quantity');
  if (quantity !== undefined && minOrder !== undefined && quantity < minOrder)
    throw unprocessable('quantity should be greater than or equal to min-order', '/data/attributes/quantity');
  if (quantity !== undefined && maxOrder !== undefined && quantity < maxOrder)
    throw unprocessable('quantity should be greater than or equal to max-order', '/data/attributes/quantity');
  const type = get('type');
  const minPrice = num(get('minPrice'));
  const maxPrice = num(get('maxPrice'));
  if (type === 'donation' && minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    throw unprocessable('min-price should be less than or equal to max-price', '/data/attributes/min-price');
  const price = num(get('price'));
  if (type === 'paid' && !(price !== undefined && price > 0))
    throw unprocessable('a paid ticket needs a price greater than 0', '/data/attributes/price');
}
