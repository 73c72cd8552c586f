import { startService, type ServiceProcess } from './harness.js';

/**
 * `src/server.ts --role api` with API_PROCESSES processes sharing one port, on the benchmark's
 * database and JWT secret (so the benchmark's token works); resolves once its banner names the port.
 */
export const startApiServer = (processes: number, env: Record<string, string>): Promise<ServiceProcess> =>
  startService({ ...env, API_PROCESSES: String(processes) }, ['--role', 'api']);
