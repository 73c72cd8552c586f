import { unprocessable, type Row } from '../../jsonapi/index.js';

/** Refuses a field whose min is above its max, the written values taken with the stored ones. */
export function checkBounds(values: Record<string, unknown>, row?: Row) {
  const min = 'min' in values ? values.min : row?.min;
  const max = 'max' in values ? values.max : row?.max;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    throw unprocessable('max should be greater than or equal to min', '/data/attributes/max');
}
