/** `social-links` -> `SocialLinks`: how component and operation names are spelled. */
export const pascal = (s: string) =>
  s
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The declared member name a query means: member names are declared dasherized (`location-name`), and
 * queries may also spell them in snake_case (`location_name`), as the Open Event front end does.
 */
export const memberName = (names: { has(name: string): boolean }, name: string): string | undefined =>
  [name, name.replaceAll('_', '-')].find((n) => names.has(n));

/** The entry of `map` a query names, in either spelling (see memberName). */
export function byMemberName<T>(map: ReadonlyMap<string, T>, name: string): T | undefined {
  const key = memberName(map, name);
  return key === undefined ? undefined : map.get(key);
}
