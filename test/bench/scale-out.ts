import { startServerProcess } from '../helpers/server-process.js';

export interface ApiServer {
  origin: string;
  stop(): Promise<void>;
}

/**
 * `src/server.ts --role api` with API_PROCESSES processes sharing one port, on the benchmark's
 * database and JWT secret (so the benchmark's token works); resolves once its banner names the port.
 */
export async function startApiServer(processes: number, env: Record<string, string>): Promise<ApiServer> {
  const server = startServerProcess(
    { ...env, API_PROCESSES: String(processes), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    ['--role', 'api'],
  );
  const { API } = await server.urls;
  return {
    origin: API!.replace('localhost', '127.0.0.1').replace(/\/v1$/, ''),
    stop: async () => {
      if (server.child.exitCode === null) server.child.kill('SIGTERM');
      await server.exited;
    },
  };
}
