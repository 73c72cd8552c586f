import { type TSchema, Type } from '@sinclair/typebox';
import { AssistantError } from './identity.js';

/*
 * The one reading of the boolean parameters of /cms, /aaa and /susi. Every endpoint reads its flags here,
 * so that `fetchDetails=1` means what `applyFilter=1` means, and the OpenAPI document describes each flag
 * with the spellings this module takes.
 */

/** The spellings of true, as the reference's Query.get(key, boolean) compares them after trimming. */
const TRUE = ['true', '1'];
/** The spellings of false that the strict flags and `private` take. */
const FALSE = ['false', '0'];

/**
 * A boolean parameter as the reference's Query.get(key, boolean) reads it: `true` or `1` (trimmed) is
 * true, any other value (an empty one too) is false, and a parameter not given is `absent`.
 */
export const flag = (value: string | undefined, absent = false): boolean =>
  value === undefined ? absent : TRUE.includes(value.trim());

/**
 * A boolean parameter whose other values are refused, where the reference refuses them (changeSkillStatus,
 * getSkillList's `reviewed` and `staff_picks`), since a typo there would otherwise silently clear a status:
 * true as `flag` reads it, `false` or `0` (trimmed) false, not given undefined, anything else a 400 with `message`.
 */
export function strictFlag(value: string | undefined, message: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (flag(value)) return true;
  if (FALSE.includes(value.trim())) return false;
  throw new AssistantError(400, message);
}

/**
 * `private` (the bot builder sends `1`). The reference takes any value as private, so only an empty value
 * or a spelling of false leaves a skill public: a bot is never published because its flag was spelt in a
 * way `flag` would read as false.
 */
export const isPrivate = (p: { private?: string }): boolean =>
  p.private !== undefined && p.private.trim() !== '' && !FALSE.includes(p.private.trim());

const FLAG_NOTE = 'a flag: `true` or `1` is true, any other value false';
const STRICT_NOTE = 'a flag: `true` or `1` is true, `false` or `0` false, any other value a 400';
const PRIVATE_NOTE = 'given any value but an empty one, `false` or `0`; the editors send `1`';

/** Optional string parameters: flags travel as text, so their schema is a string that names the spellings. */
const described = (params: Record<string, string>, note: string): Record<string, TSchema> =>
  Object.fromEntries(
    Object.entries(params).map(([name, description]) => [
      name,
      Type.Optional(Type.String({ description: `${description}; ${note}` })),
    ]),
  );

/** Flag parameters read with `flag`: name -> what true does. */
export const flags = (params: Record<string, string>) => described(params, FLAG_NOTE);

/** Flag parameters read with `strictFlag`: name -> what the flag sets. */
export const strictFlags = (params: Record<string, string>) => described(params, STRICT_NOTE);

/** The `private` parameter read with `isPrivate`, with what it selects on this endpoint. */
export const privateParam = (what: string) => described({ private: what }, PRIVATE_NOTE);
