import colorNames from 'color-name';
import type { Repaired } from './lengths.js';

const hex = (n: number) => n.toString(16).padStart(2, '0');

/**
 * A colour as `#rrggbb`: also `#RGB`, hex without `#`, `rgb(r, g, b)` and the CSS colour names
 * (`red`, `DarkSlateGray`). Letter case alone is no repair (tracks store colours in lower case).
 */
export function readColor(value: unknown): Repaired<string> {
  if (typeof value !== 'string') return { error: 'not a colour' };
  const text = value.trim().toLowerCase();
  let color: string | undefined;
  if (/^#[0-9a-f]{6}$/.test(text)) color = text;
  else if (/^#?[0-9a-f]{3}$/.test(text)) color = `#${[...text.replace('#', '')].map((c) => c + c).join('')}`;
  else if (/^[0-9a-f]{6}$/.test(text)) color = `#${text}`;
  else {
    const rgb = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/.exec(text)?.slice(1).map(Number);
    const name = text.replace(/\s+/g, '');
    const named = Object.hasOwn(colorNames, name) ? colorNames[name as keyof typeof colorNames] : undefined;
    const channels = rgb?.every((c) => c <= 255) ? rgb : named;
    if (channels) color = `#${channels.map(hex).join('')}`;
  }
  if (!color) return { error: 'not a colour (#rrggbb)' };
  return color === value.toLowerCase() ? { value: color } : { value: color, note: `read as ${color}` };
}
