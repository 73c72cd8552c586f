import type { FastifyInstance } from 'fastify';
import type { LoginLimits } from './auth/login.js';

/** Placeholder while the bench baselines are rewritten (branch bench-baselines). */
export default async function benchRoutes(_app: FastifyInstance, _options: { loginLimits: LoginLimits; listAllMax: number }) {}
