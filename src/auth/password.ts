import argon2 from 'argon2';

/**
 * OWASP's parameters for argon2id in interactive logins (19 MiB, 2 passes, 1 lane), instead of the
 * library's default (64 MiB, 3 passes, 4 lanes): a login costs a few milliseconds, not a hundred.
 */
export const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, HASH_OPTIONS);

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
