import { spawn, type ChildProcess } from 'node:child_process';

// tsx's loader hooks reach children through NODE_OPTIONS when the benchmark runs under tsx; the
// server is started the way `npm start` starts it instead.
const { NODE_OPTIONS: _nodeOptions, ...cleanEnv } = process.env;

export interface ApiServer {
  origin: string;
  stop(): Promise<void>;
}

/**
 * `src/server.ts --role api` with API_PROCESSES processes sharing one port, on the benchmark's
 * database and JWT secret (so the benchmark's token works); resolves once its banner names the port.
 */
export async function startApiServer(processes: number, env: Record<string, string>): Promise<ApiServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts', '--role', 'api'], {
    env: { ...cleanEnv, ...env, API_PROCESSES: String(processes), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /^API:\s+http:\/\/localhost:(\d+)\/v1$/m.exec(output)?.[1];
      if (port) resolve(`http://127.0.0.1:${port}`);
    });
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    void exited.then(() => reject(new Error(`the API server ended before listening:\n${output}`)));
  });
  return {
    origin,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
