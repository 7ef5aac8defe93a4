/**
 * A development probe, not a bench section: how long the simulator takes to build a healthy
 * cluster of N nodes x 30 pods, how much it holds, and how long its pages take over HTTPS, as the
 * plain paged GET reads them (CEPs as metadata, Running pods; 500 a page), with the GC time in
 * between, and the simulator's CPU per page (the client runs in its own process). Pages at the start of each list and three-quarters in show whether a page costs more
 * deeper into the store. Run as the bench runs (`docs/scale.md` quotes it):
 *
 *   node --import tsx --expose-gc --max-old-space-size=8192 bench/sim-pages-probe.ts 20000 [pages]
 *
 * With more pages than a list has (e.g. 100000), it reads each list whole instead.
 */
import { fork } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { R } from '../sim/cluster.ts';
import { startSim } from '../sim/index.ts';
import type { KubeObject } from '../sim/objects.ts';
import type { ResourceType } from '../sim/resources.ts';
import { encodeContinue } from '../sim/server/continue-token.ts';
import { parseFieldSelector } from '../sim/server/selectors.ts';
import { healthyCluster } from './scale-clusters.ts';

const nodes = Number(process.argv[2] ?? 5000);
const pagesPerList = Number(process.argv[3] ?? 100);
const PARTIAL = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
const started = performance.now();
const cluster = healthyCluster(nodes);
const buildSeconds = (performance.now() - started) / 1000;
globalThis.gc?.();
console.log(
  `${nodes} nodes: built in ${buildSeconds.toFixed(0)} s, heap ${mib(process.memoryUsage().heapUsed)} MiB live, ` +
    `RSS ${mib(process.memoryUsage().rss)} MiB (peak ${mib(process.resourceUsage().maxRSS * 1024)} MiB)`,
);

const sim = await startSim({ cluster, controllers: false });
const client = fork(fileURLToPath(new URL('./sim-pages-client.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
});
const answers: ((message: unknown) => void)[] = [];
client.on('message', (message) => answers.shift()?.(message));
const ask = <T>(message: unknown) =>
  new Promise<T>((resolve) => {
    answers.push(resolve as (message: unknown) => void);
    client.send(message as object);
  });
await ask({ url: sim.url, ca: sim.caPem, token: sim.admin.token });

/** The page's continue token, read by the client process. */
function get(path: string, accept: string): Promise<{ continue?: string; bytes: number }> {
  return ask({ path, accept });
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** A continue token three-quarters into the list, as a client that paged that far holds. */
function tokenAt(type: ResourceType, share: number, match?: (object: KubeObject) => boolean): string {
  const target = Math.floor(cluster.store.count(type) * share);
  let seen = 0;
  let after = '';
  // Walks the store without keeping what it reads (every object fails the filter).
  cluster.store.list(type, {
    filter: (object) => {
      if ((!match || match(object)) && ++seen === target) {
        after = `${object.metadata.namespace}/${object.metadata.name}`;
      }
      return false;
    },
  });
  return encodeContinue({ revision: cluster.store.revision, after });
}

/** Wall and CPU (this process's: the simulator's, the client runs apart) milliseconds of each page. */
async function pageTimes(
  path: string,
  accept: string,
  token?: string,
): Promise<{ wall: number[]; cpu: number[] }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let next = token;
  for (let page = 0; page < pagesPerList; page++) {
    const at = performance.now();
    const cpuAt = process.cpuUsage();
    const query = `limit=500${next ? `&continue=${encodeURIComponent(next)}` : ''}`;
    const body = await get(`${path}${path.includes('?') ? '&' : '?'}${query}`, accept);
    const used = process.cpuUsage(cpuAt);
    cpu.push((used.user + used.system) / 1000);
    wall.push(performance.now() - at);
    next = body.continue;
    if (!next) break;
  }
  return { wall, cpu };
}

/** `pagesPerList` pages from the start of the list, then as many from three-quarters in. */
async function pages(label: string, type: ResourceType, path: string, accept: string): Promise<void> {
  const match = path.includes('fieldSelector')
    ? parseFieldSelector(type.plural, 'status.phase=Running')
    : undefined;
  gcMs = 0;
  const early = await pageTimes(path, accept);
  const whole = `${early.wall.length} pages in ${(sum(early.wall) / 1000).toFixed(1)} s, CPU ${(sum(early.cpu) / 1000).toFixed(1)} s`;
  if (early.wall.length < pagesPerList) {
    // The whole list was read: no second run from three-quarters in.
    console.log(
      `${label}: the whole list, ${whole}; median page ${median(early.wall).toFixed(1)} ms ` +
        `(CPU ${median(early.cpu).toFixed(1)} ms); GC ${(gcMs / 1000).toFixed(1)} s`,
    );
    return;
  }
  const earlyGcMs = gcMs;
  const token = tokenAt(type, 0.75, match);
  gcMs = 0;
  const late = await pageTimes(path, accept, token);
  gcMs += earlyGcMs;
  console.log(
    `${label}: median page ${median(early.wall).toFixed(1)} ms at the start (CPU ${median(early.cpu).toFixed(1)} ms), ` +
      `${median(late.wall).toFixed(1)} ms three-quarters in (CPU ${median(late.cpu).toFixed(1)} ms); ` +
      `GC ${(gcMs / 1000).toFixed(1)} s over ${early.wall.length + late.wall.length} pages (not the walk to the token)`,
  );
}

await pages('CEPs (metadata)', R.ciliumendpoints, '/apis/cilium.io/v2/ciliumendpoints', PARTIAL);
await pages('Running pods', R.pods, '/api/v1/pods?fieldSelector=status.phase%3DRunning', 'application/json');
client.send('exit');
await sim.close();
