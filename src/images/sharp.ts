import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/** sharp (libvips), loaded on first use: most processes never touch an image, and loading it cost 70 ms of each start. */
export const loadSharp = () => (loading ??= import('sharp').then((module) => module.default));
