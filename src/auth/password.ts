import argon2 from 'argon2';

/**
 * OWASP's parameters for argon2id in interactive logins (19 MiB, 2 passes, 1 lane), instead of the
 * library's default (64 MiB, 3 passes, 4 lanes): a login costs a few milliseconds, not a hundred.
 */
export const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, HASH_OPTIONS);

/**
 * The hash to store instead of `hash` once `password` has matched it, or null when `hash` already has
 * HASH_OPTIONS: hashes made with other parameters (the library's default, an older argon2 type) are
 * upgraded at the next successful login. needsRehash compares the version and m, t, p, not the type.
 */
export async function upgradedHash(hash: string, password: string): Promise<string | null> {
  const current = hash.startsWith('$argon2id$') && !argon2.needsRehash(hash, HASH_OPTIONS);
  return current ? null : hashPassword(password);
}

// Compared against when the account does not exist, so a login takes as long either way.
const decoy = hashPassword('decoy password that matches nothing');

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  try {
    const matches = await argon2.verify(hash ?? (await decoy), password);
    return matches && hash !== undefined;
  } catch {
    return false;
  }
}
