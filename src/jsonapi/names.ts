/** `social-links` -> `SocialLinks`: how component and operation names are spelled. */
export const pascal = (s: string) =>
  s
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
