import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODES } from '../../../runbooks/unmanaged-pods/findings.ts';
import { byNamespaceKey } from '../../../runbooks/unmanaged-pods/side-by-side.ts';
import { R } from '../../../sim/cluster.ts';
import type { PodRef } from '../../../sim/scenarios/plan.ts';
import {
  type ClusterAccess,
  type KubeFacade,
  type ListOptions,
  RESOURCES,
  type ResourceRef,
} from '../../../src/cluster/types.ts';
import type { Report } from '../../../src/engine/types.ts';
import type { Job } from '../../../src/queue/job.ts';
import { CLUSTER } from '../../functions/harness.ts';
import { type SimUnderTest, startScenario } from '../../helpers/sim-access.ts';
import { scheduleTrigger } from '../routing/fixtures.ts';
import { type LocalDynamoDB, startLocalDynamoDB } from '../store/local-dynamodb.ts';
import { continuationRig, type Invocation } from './continue-rig.ts';

/** 250 nodes of 3 pods: ten team namespaces of 75 one-pod Deployments beside the planted incident's, two pages of pods. */
const NODES = 250;
/** What one list, page or eviction costs the invocation, on the fake Lambda clock. */
const CALL_MS = 1_000;
/** The namespaces list, then the first page of pods and of endpoints read side by side. */
const FIRST_BUDGET_MS = 5_000 + 3 * CALL_MS;
const RUNNING = 'status.phase=Running,spec.hostNetwork=false';

let local: LocalDynamoDB;
let scenario: SimUnderTest;
let namespaces: string[];
/** Unmanaged in the namespace the scan reads last: found only by a later invocation. */
let late: PodRef;
let planted: { unmanaged: PodRef[]; evictable: PodRef[] };
beforeAll(async () => {
  local = await startLocalDynamoDB();
  scenario = await startScenario(['scale', 'unmanaged-pods'], { scenario: { nodes: NODES, podsPerNode: 3 } });
  const { access, sim } = scenario;
  namespaces = (await access.kube.list(RESOURCES.namespaces, { project: (ns) => ns.metadata.name })).sort(
    byNamespaceKey,
  );
  const last = namespaces.at(-1) as string;
  const [pod] = await access.kube.list(RESOURCES.pods, { namespace: last, project: 'metadata' });
  if (!pod) throw new Error(`no pod in ${last}`);
  const { name, uid } = pod.metadata;
  sim.cluster.store.delete(R.ciliumendpoints, last, name);
  late = { namespace: last, name, uid, node: '' } as PodRef;
  const plan = scenario.plan.unmanagedPods;
  if (!plan) throw new Error('scenario planted nothing');
  planted = {
    unmanaged: [...plan.evictable, ...plan.blockedByBudget, ...plan.onNotReadyAgent, ...plan.mirror, late],
    evictable: [...plan.evictable, late],
  };
});
afterAll(async () => {
  await scenario.sim.close();
  await local.stop();
});

/** The simulator's cluster, telling the invocation running now of every list, page and eviction. */
function metered(access: ClusterAccess, current: () => Invocation | undefined): ClusterAccess {
  const what = (resource: ResourceRef, options: ListOptions<unknown>) =>
    `${resource.plural} ${options.namespace ?? '*'}${options.fieldSelector === RUNNING ? ' running' : ''}`;
  const list: KubeFacade['list'] = async (resource, options) => {
    current()?.spend(`list ${what(resource, options)}`);
    const listed = await access.kube.list(resource, options);
    current()?.calls.push(`listed ${what(resource, options)}`);
    return listed;
  };
  const pages: KubeFacade['pages'] = async function* (resource, options) {
    for await (const page of access.kube.pages(resource, options)) {
      current()?.spend(`page ${what(resource, options)}`);
      yield page;
    }
  };
  const evict: KubeFacade['evict'] = async (namespace, name, options) => {
    if (!options.dryRun) current()?.spend(`evict ${namespace}/${name}`);
    return access.kube.evict(namespace, name, options);
  };
  const metering: Partial<Record<PropertyKey, unknown>> = { list, pages, evict };
  const kube = new Proxy(access.kube, {
    get(target, property) {
      if (property in metering) return metering[property];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...access, kube };
}

async function setup(options: { deadlineMs?: number } = {}) {
  return continuationRig(local, {
    ...options,
    costMs: CALL_MS,
    connect: async (current) => metered(scenario.access, current),
  });
}

function scanJob(id: string, mode: Job['mode']): Job {
  return {
    id,
    runbook: 'unmanaged-pods',
    cluster: CLUSTER,
    mode,
    params: {},
    trigger: scheduleTrigger('nightly', { cluster: CLUSTER, runbook: 'unmanaged-pods' }),
    dedupeKey: `key-${id}`,
  };
}

/** The namespaces whose `plural` the scan listed, in the order it listed them. */
const scanned = (calls: readonly string[], plural: 'pods' | 'ciliumendpoints') =>
  calls
    .map((call) => call.split(' '))
    .filter(
      ([verb, resource, namespace, running]) =>
        verb === 'list' && resource === plural && namespace !== '*' && (plural !== 'pods' || running),
    )
    .map(([, , namespace]) => namespace as string);
const keyOf = (pod: PodRef) => `${pod.namespace}/${pod.name}`;
const step = (report: Report | undefined, id: string) => report?.steps.find((s) => s.id === id);
const unmanagedTargets = (report: Report | undefined) =>
  (step(report, 'find-unmanaged')?.findings ?? [])
    .filter((f) => f.code === CODES.unmanagedPod)
    .map((f) => f.target);

/** The pages of `plural` an invocation read across every namespace. */
const pagesRead = (calls: readonly string[], plural: 'pods' | 'ciliumendpoints') =>
  calls.filter((call) => call.split(' ').slice(0, 3).join(' ') === `page ${plural} *`).length;
/** How many namespaces the scan had read (in key order) when it paused, from its report's words. */
const readWhole = (summary: string | undefined) =>
  Number(/the pod scan read (\d+) of/.exec(summary ?? '')?.[1]);

describe('an unmanaged-pods scan that cannot finish in one invocation', () => {
  it('goes on from the namespaces it read whole, and reports every unmanaged pod and every pod once', async () => {
    const { queue, chat, store, deliver } = await setup();
    const first = await deliver(scanJob('scan-1', 'dry-run'), FIRST_BUDGET_MS);

    expect(first.report).toBeUndefined();
    expect(chat.reports).toHaveLength(0);
    const [next] = queue.sent as [Job];
    expect(next).toMatchObject({ id: 'scan-1-continue-2', resume: { runId: 'scan-1', invocation: 2 } });
    // The cluster's two lists side by side, a page of each, and no namespace alone.
    expect(pagesRead(first.calls, 'pods')).toBe(1);
    expect(pagesRead(first.calls, 'ciliumendpoints')).toBeGreaterThanOrEqual(1);
    expect(scanned(first.calls, 'pods')).toEqual([]);

    const second = await deliver(next, 900_000);

    // The rest one namespace at a time: those after the ones the first page held whole, in key order.
    const readSecond = scanned(second.calls, 'pods');
    expect(readSecond.length).toBeGreaterThan(1);
    expect(readSecond.length).toBeLessThan(namespaces.length);
    expect(readSecond).toEqual(namespaces.slice(namespaces.length - readSecond.length));
    expect(readSecond).toContain(late.namespace);
    expect(scanned(second.calls, 'ciliumendpoints')).toEqual(readSecond);
    // Each namespace's pods listed only once its endpoint list is whole.
    for (const namespace of readSecond)
      expect(second.calls.indexOf(`listed ciliumendpoints ${namespace}`)).toBeLessThan(
        second.calls.indexOf(`list pods ${namespace} running`),
      );
    expect(pagesRead(second.calls, 'pods')).toBe(0);
    expect(second.calls).not.toContain('list namespaces *');

    expect(chat.reports).toHaveLength(1);
    const report = chat.reports[0];
    expect(report?.runId).toBe('scan-1');
    expect(report?.verdict).toBe('degraded');
    // Found in either invocation, each once.
    expect(unmanagedTargets(report).sort()).toEqual(planted.unmanaged.map(keyOf).sort());
    const found = step(report, 'find-unmanaged');
    expect(found?.summary).toMatch(new RegExp(`^${planted.unmanaged.length} unmanaged pods on \\d+ nodes: `));
    // Each pod and endpoint counted once: the namespace the first page held in part is counted by the second.
    const { kube } = scenario.access;
    const running = await kube.list(RESOURCES.pods, { fieldSelector: RUNNING, project: () => 1 });
    const endpoints = await kube.list(RESOURCES.ciliumendpoints, { metadataOnly: true, project: () => 1 });
    expect(found?.evidence[0]?.text).toBe(
      `${running.length} Running pods on the pod network, ${endpoints.length} CiliumEndpoints`,
    );
    const watcher = step(report, 'operator-watcher');
    expect(watcher?.summary).toMatch(
      `misses ${planted.unmanaged.length} of ${planted.unmanaged.length} unmanaged pods`,
    );
    expect(step(report, 'restart-unmanaged')?.plan.map((p) => p.target)).toContain(keyOf(late));
    const runs = await store.runs.list();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: 'scan-1', status: 'done', verdict: 'degraded', posted: true });
    expect(second.record.startedAt).toBe(first.record.startedAt);
  });
});

describe('an unmanaged-pods scan whose run has no time left', () => {
  it('ends as timed out at the next invocation, reading nothing more, with what it found so far', async () => {
    const { queue, chat, clock, deliver } = await setup({ deadlineMs: 4 * 60_000 });
    const first = await deliver(scanJob('scan-3', 'dry-run'), FIRST_BUDGET_MS);
    const [next] = queue.sent as [Job];
    clock.advance(4 * 60_000);

    const second = await deliver(next, 900_000);

    expect(second.calls).toEqual([]);
    expect(chat.reports).toHaveLength(1);
    const report = chat.reports[0];
    expect(report?.verdict).toBe('failed');
    const watcher = step(report, 'operator-watcher');
    expect(watcher?.status).toBe('error');
    const read = readWhole(watcher?.summary);
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(namespaces.length);
    // What the namespaces read whole hold, no more.
    const foundFirst = planted.unmanaged.filter((pod) => namespaces.indexOf(pod.namespace) < read);
    expect(foundFirst.length).toBeGreaterThan(0);
    expect(foundFirst.length).toBeLessThan(planted.unmanaged.length);
    expect(watcher?.summary).toMatch(
      new RegExp(
        `^timed out: its 4-minute deadline, counted from its start at ${first.record.startedAt}, ran out in its invocation 2: .*; coverage not judged: the pod scan read ${read} of ${namespaces.length} namespaces, ${foundFirst.length} unmanaged pods so far$`,
      ),
    );
    expect(watcher?.evidence.at(-1)?.source).toBe('pod scan so far');
    expect(step(report, 'find-unmanaged')?.summary).toBe('skipped: an earlier step failed');
  });
});

// Last: its evictions change the cluster the tests above read.
describe('an unmanaged-pods run in auto that continues', () => {
  it('evicts only once the scan is whole, each unmanaged pod once, through the actuator', async () => {
    const { queue, chat, store, deliver } = await setup();
    const first = await deliver(scanJob('scan-2', 'auto'), FIRST_BUDGET_MS);
    expect(first.calls.filter((call) => call.startsWith('evict'))).toEqual([]);
    expect(first.record.actions).toEqual([]);
    const [next] = queue.sent as [Job];

    const second = await deliver(next, 900_000);

    const firstEviction = second.calls.findIndex((call) => call.startsWith('evict'));
    expect(firstEviction).toBeGreaterThan(0);
    // Every namespace was read before the first eviction: the rest of the scan, then the evictions.
    expect(scanned(second.calls.slice(0, firstEviction), 'pods').length).toBeGreaterThan(0);
    expect(scanned(second.calls.slice(firstEviction), 'pods')).toEqual([]);
    const evicted = second.calls
      .filter((call) => call.startsWith('evict'))
      .map((call) => call.slice('evict '.length));
    expect(evicted.sort()).toEqual(planted.evictable.map(keyOf).sort());
    const report = chat.reports[0];
    expect(chat.reports).toHaveLength(1);
    const done = step(report, 'restart-unmanaged')?.done ?? [];
    expect(
      done
        .filter((d) => d.outcome === 'done')
        .map((d) => d.target)
        .sort(),
    ).toEqual(evicted);
    // The evicted pods' replacements were told from the pods already there, and are managed.
    expect(step(report, 'verify-replacements')?.summary).toMatch(
      new RegExp(`^CiliumEndpoint on ${evicted.length} of ${evicted.length} replacements; `),
    );
    const record = await store.runs.get('scan-2');
    expect(record?.actions.filter((line) => line.includes(': done'))).toHaveLength(evicted.length);
  });
});
