/** A lifetime as mails say it: `7 days`, `1 hour`, `90 minutes`. */
export function duration(seconds: number): string {
  const [count, unit] =
    seconds % 86400 === 0
      ? [seconds / 86400, 'day']
      : seconds % 3600 === 0
        ? [seconds / 3600, 'hour']
        : [Math.ceil(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}
