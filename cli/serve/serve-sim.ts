import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Sim, startSim } from '../../sim/index.ts';
import { listenError } from '../port-in-use.ts';

export interface ServeSimOptions {
  scenarios: string[];
  kubeconfig: string;
  port?: number;
}

/** Starts the simulator, writes its kubeconfig, and resolves once it serves. */
export async function serveSim(options: ServeSimOptions): Promise<{ sim: Sim; kubeconfigPath: string }> {
  const sim = await startSim({
    scenarios: options.scenarios,
    ...(options.port !== undefined ? { port: options.port } : {}),
  }).catch((error: unknown) => {
    throw listenError(error, '127.0.0.1', options.port);
  });
  const kubeconfigPath = resolve(options.kubeconfig);
  await writeFile(kubeconfigPath, sim.kubeconfig(), { mode: 0o600 });
  return { sim, kubeconfigPath };
}

/** Keeps the process serving until Ctrl-C or SIGTERM, then shuts down what it serves. */
export function untilInterrupted(sim: { close(): Promise<void> }): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void sim.close().then(done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
