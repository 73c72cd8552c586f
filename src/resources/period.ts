import { unprocessable, type Row } from '../jsonapi/index.js';

const after = (values: Record<string, unknown>, current: Row | undefined, key: string) =>
  key in values ? values[key] : current?.[key];

/** 422 unless ends-at is after starts-at, judged on the record as the write would leave it. */
export function checkPeriod(values: Record<string, unknown>, current?: Row) {
  const starts = after(values, current, 'startsAt');
  const ends = after(values, current, 'endsAt');
  if (starts instanceof Date && ends instanceof Date && ends <= starts)
    throw unprocessable(
      'ends-at must be after starts-at',
      `/data/attributes/${'endsAt' in values ? 'ends-at' : 'starts-at'}`,
    );
}
