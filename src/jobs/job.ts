import type { JobDefinition } from '../../plugins/boss.js';

export type { JobDefinition };

export const defineJob = <T extends object>(job: JobDefinition<T>): JobDefinition<T> => job;
