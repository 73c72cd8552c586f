import argon2 from 'argon2';

export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

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
