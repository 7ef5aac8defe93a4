import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../sim/objects.ts';
import { humanDuration } from '../../../sim/server/tables/cells.ts';
import {
  parseIncludeObject,
  toPartialObjectMetadata,
  toPartialObjectMetadataList,
  toTable,
} from '../../../sim/server/tables/convert.ts';
import { negotiate } from '../../../sim/server/tables/negotiate.ts';
import { ApiError } from '../../../sim/status.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const before = (now: Date, seconds: number) =>
  new Date(now.getTime() - seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
const ago = (seconds: number) => before(NOW, seconds);
const rows = (plural: string, objects: KubeObject[]) =>
  toTable(plural, objects, { now: NOW, resourceVersion: '100' }).rows.map((row) => row.cells);
const headers = (plural: string) =>
  toTable(plural, [], { now: NOW, resourceVersion: '1' }).columnDefinitions.map((c) => [
    c.name,
    c.type,
    c.priority,
  ]);

describe('humanDuration', () => {
  it.each([
    [-2000, '<invalid>'],
    [-1500, '0s'],
    [0, '0s'],
    [119_000, '119s'],
    [120_000, '2m'],
    [303_000, '5m3s'],
    [600_000, '10m'],
    [179 * 60_000, '179m'],
    [(3 * 60 + 2) * 60_000, '3h2m'],
    [5 * 3600_000, '5h'],
    [30 * 3600_000, '30h'],
    [(2 * 24 + 5) * 3600_000, '2d5h'],
    [12 * 86400_000, '12d'],
    [400 * 86400_000, '400d'],
    [(3 * 365 + 20) * 86400_000, '3y20d'],
    [10 * 365 * 86400_000, '10y'],
  ])('%d ms is %s', (milliseconds, text) => {
    expect(humanDuration(milliseconds)).toBe(text);
  });
});

function pod(
  name: string,
  status: Record<string, unknown>,
  spec: Record<string, unknown> = {},
  meta = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      uid: `uid-${name}`,
      resourceVersion: '7',
      creationTimestamp: ago(300),
      ...meta,
    },
    spec: { nodeName: 'ip-10-0-1-5.ec2.internal', containers: [{ name: 'app', image: 'app:1' }], ...spec },
    status,
  };
}

const running = { running: { startedAt: ago(290) } };

describe('pods table', () => {
  it('has the columns kubectl shows, wide ones at priority 1', () => {
    expect(headers('pods')).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Status', 'string', 0],
      ['Restarts', 'string', 0],
      ['Age', 'string', 0],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ]);
    const [name, , , restarts] = toTable('pods', [], { now: NOW, resourceVersion: '1' }).columnDefinitions;
    expect(name).toMatchObject({
      format: 'name',
      description: expect.stringMatching(/^Name must be unique/),
    });
    expect(restarts?.description).toBe(
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    );
  });

  it('prints a ready pod', () => {
    const ready = pod('web-1', {
      phase: 'Running',
      podIP: '10.0.1.20',
      podIPs: [{ ip: '10.0.1.20' }],
      conditions: [{ type: 'Ready', status: 'True' }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
    });
    expect(rows('pods', [ready])).toEqual([
      ['web-1', '1/1', 'Running', '0', '5m', '10.0.1.20', 'ip-10-0-1-5.ec2.internal', '<none>', '<none>'],
    ]);
  });

  it('prints a crash-looping pod with restarts and when it last restarted', () => {
    const crashing = pod(
      'web-2',
      {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', ready: true, restartCount: 0, state: running },
          {
            name: 'sidecar',
            ready: false,
            restartCount: 4,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
            lastState: { terminated: { exitCode: 137, reason: 'Error', finishedAt: ago(95) } },
          },
        ],
      },
      { containers: [{ name: 'app' }, { name: 'sidecar' }] },
    );
    expect(rows('pods', [crashing])[0]?.slice(0, 6)).toEqual([
      'web-2',
      '1/2',
      'CrashLoopBackOff',
      '4 (95s ago)',
      '5m',
      '<none>',
    ]);
  });

  it('prints init progress, init failures and sidecars', () => {
    const initContainers = [{ name: 'init' }, { name: 'proxy', restartPolicy: 'Always' }];
    const waiting = pod(
      'w',
      {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'init', restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
        ],
      },
      { initContainers },
    );
    const failed = pod(
      'f',
      {
        phase: 'Pending',
        initContainerStatuses: [{ name: 'init', restartCount: 2, state: { terminated: { exitCode: 1 } } }],
      },
      { initContainers },
    );
    const withSidecar = pod(
      's',
      {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'init', restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } },
          { name: 'proxy', restartCount: 1, started: true, ready: true, state: running },
        ],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: running }],
        conditions: [{ type: 'Initialized', status: 'True' }],
      },
      { initContainers },
    );
    const [w, f, s] = rows('pods', [waiting, failed, withSidecar]);
    expect(w?.slice(1, 4)).toEqual(['0/2', 'Init:0/2', '0']);
    expect(f?.slice(1, 4)).toEqual(['0/2', 'Init:ExitCode:1', '2']);
    expect(s?.slice(1, 4)).toEqual(['2/2', 'Running', '1']);
  });

  it('marks completed and failed pods with row conditions', () => {
    const done = pod('done', {
      phase: 'Succeeded',
      containerStatuses: [
        {
          name: 'app',
          ready: false,
          restartCount: 0,
          state: { terminated: { exitCode: 0, reason: 'Completed' } },
        },
      ],
    });
    const failed = pod('failed', { phase: 'Failed', reason: 'Evicted', message: 'low on memory' });
    const table = toTable('pods', [done, failed], { now: NOW, resourceVersion: '1' });
    expect(table.rows.map((row) => row.cells[2])).toEqual(['Completed', 'Evicted']);
    expect(table.rows[0]?.conditions).toEqual([
      {
        type: 'Completed',
        status: 'True',
        reason: 'Succeeded',
        message: 'The pod has completed successfully.',
      },
    ]);
    expect(table.rows[1]?.conditions).toEqual([
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ]);
  });

  it('prints Terminating, Unknown, SchedulingGated and readiness gates', () => {
    const deleting = { deletionTimestamp: ago(5) };
    const terminating = pod('t', { phase: 'Running' }, {}, deleting);
    const lost = pod('l', { phase: 'Running', reason: 'NodeLost' }, {}, deleting);
    const gated = pod(
      'g',
      {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }],
      },
      { nodeName: undefined },
    );
    const gates = pod(
      'r',
      {
        phase: 'Running',
        nominatedNodeName: 'n2',
        conditions: [
          { type: 'cilium.io/ready', status: 'True' },
          { type: 'example.com/lb', status: 'False' },
        ],
      },
      { readinessGates: [{ conditionType: 'cilium.io/ready' }, { conditionType: 'example.com/lb' }] },
    );
    const [t, l, g, r] = rows('pods', [terminating, lost, gated, gates]);
    expect(t?.[2]).toBe('Terminating');
    expect(l?.[2]).toBe('Unknown');
    expect(g?.[2]).toBe('SchedulingGated');
    expect(g?.[6]).toBe('<none>');
    expect(r?.slice(7)).toEqual(['n2', '1/2']);
  });
});

describe('nodes table', () => {
  const node = (name: string, ready: string | undefined, extra: Partial<KubeObject> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, creationTimestamp: ago(12 * 86400), labels: { 'kubernetes.io/os': 'linux' } },
    spec: {},
    status: {
      conditions: ready
        ? [
            { type: 'MemoryPressure', status: 'False' },
            { type: 'Ready', status: ready },
          ]
        : [],
      addresses: [
        { type: 'InternalIP', address: '10.0.1.5' },
        { type: 'Hostname', address: name },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.33.5-eks-113cf36',
        osImage: 'Amazon Linux 2023.8.20250808',
        kernelVersion: '6.1.147-172.266.amzn2023.x86_64',
        containerRuntimeVersion: 'containerd://1.7.27',
      },
    },
    ...extra,
  });

  it('has the columns kubectl shows', () => {
    expect(headers('nodes')).toEqual([
      ['Name', 'string', 0],
      ['Status', 'string', 0],
      ['Roles', 'string', 0],
      ['Age', 'string', 0],
      ['Version', 'string', 0],
      ['Internal-IP', 'string', 1],
      ['External-IP', 'string', 1],
      ['OS-Image', 'string', 1],
      ['Kernel-Version', 'string', 1],
      ['Container-Runtime', 'string', 1],
    ]);
  });

  it('prints status, roles, version and the wide cells', () => {
    const cordoned = node('b', 'False', { spec: { unschedulable: true } });
    cordoned.metadata.labels = { 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'edge' };
    const bare = node('c', undefined);
    bare.status = {};
    bare.metadata.creationTimestamp = undefined;
    expect(rows('nodes', [node('a', 'True'), cordoned, bare])).toEqual([
      [
        'a',
        'Ready',
        '<none>',
        '12d',
        'v1.33.5-eks-113cf36',
        '10.0.1.5',
        '<none>',
        'Amazon Linux 2023.8.20250808',
        '6.1.147-172.266.amzn2023.x86_64',
        'containerd://1.7.27',
      ],
      expect.arrayContaining(['b', 'NotReady,SchedulingDisabled', 'edge,worker']),
      ['c', 'Unknown', '<none>', '<unknown>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ]);
  });
});

describe('custom resource tables', () => {
  const cep: KubeObject = {
    apiVersion: 'cilium.io/v2',
    kind: 'CiliumEndpoint',
    metadata: { name: 'web-1', namespace: 'shop', creationTimestamp: ago(60) },
    status: {
      id: 812,
      identity: { id: 48861 },
      policy: {
        ingress: { enforcing: true, state: 'enforcing' },
        egress: { enforcing: false, state: 'non-enforcing' },
      },
      state: 'ready',
      networking: { addressing: [{ ipv4: '10.0.1.20' }], node: '10.0.1.5' },
    },
  };

  it('ciliumendpoints: the CRD printer columns, no Age', () => {
    const table = toTable('ciliumendpoints', [cep], { now: NOW, resourceVersion: '5' });
    expect(table.columnDefinitions).toEqual([
      expect.objectContaining({ name: 'Name', type: 'string', format: 'name', priority: 0 }),
      {
        name: 'Security Identity',
        type: 'integer',
        format: '',
        description: 'Security Identity',
        priority: 0,
      },
      {
        name: 'Ingress Enforcement',
        type: 'string',
        format: '',
        description: 'Ingress enforcement in the endpoint',
        priority: 1,
      },
      {
        name: 'Egress Enforcement',
        type: 'string',
        format: '',
        description: 'Egress enforcement in the endpoint',
        priority: 1,
      },
      {
        name: 'Visibility Policy',
        type: 'string',
        format: '',
        description: 'Status of visibility policy in the endpoint',
        priority: 1,
      },
      {
        name: 'Endpoint State',
        type: 'string',
        format: '',
        description: 'Endpoint current state',
        priority: 0,
      },
      { name: 'IPv4', type: 'string', format: '', description: 'Endpoint IPv4 address', priority: 0 },
      { name: 'IPv6', type: 'string', format: '', description: 'Endpoint IPv6 address', priority: 0 },
    ]);
    // Missing fields are null cells, which kubectl leaves blank.
    expect(table.rows[0]?.cells).toEqual([
      'web-1',
      48861,
      'enforcing',
      'non-enforcing',
      null,
      'ready',
      '10.0.1.20',
      null,
    ]);
  });

  it('ciliumnodes: addresses picked by type, Age as a date column', () => {
    const cn: KubeObject = {
      apiVersion: 'cilium.io/v2',
      kind: 'CiliumNode',
      metadata: { name: 'ip-10-0-1-5.ec2.internal', creationTimestamp: ago(3 * 3600) },
      spec: {
        addresses: [
          { type: 'InternalIP', ip: '10.0.1.5' },
          { type: 'CiliumInternalIP', ip: '10.0.64.1' },
        ],
      },
    };
    expect(headers('ciliumnodes')).toEqual([
      ['Name', 'string', 0],
      ['CiliumInternalIP', 'string', 0],
      ['InternalIP', 'string', 0],
      ['Age', 'date', 0],
    ]);
    expect(rows('ciliumnodes', [cn])).toEqual([['ip-10-0-1-5.ec2.internal', '10.0.64.1', '10.0.1.5', '3h']]);
  });

  it('a CRD without printer columns gets Name and Age', () => {
    expect(headers('widgets')).toEqual([
      ['Name', 'string', 0],
      ['Age', 'date', 0],
    ]);
    const widget: KubeObject = {
      apiVersion: 'x.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', creationTimestamp: 'bad' },
    };
    expect(rows('widgets', [widget])).toEqual([['w', '<invalid>']]);
  });
});

describe('other tables', () => {
  const meta = (name: string) => ({ name, namespace: 'shop', creationTimestamp: ago(7200) });
  const template = {
    spec: {
      containers: [
        { name: 'app', image: 'app:1' },
        { name: 'proxy', image: 'envoy:1' },
      ],
    },
  };

  it('namespaces, configmaps and service accounts', () => {
    expect(headers('namespaces').map(([n]) => n)).toEqual(['Name', 'Status', 'Age']);
    expect(
      rows('namespaces', [
        { apiVersion: 'v1', kind: 'Namespace', metadata: meta('shop'), status: { phase: 'Active' } },
      ]),
    ).toEqual([['shop', 'Active', '120m']]);
    expect(headers('configmaps').map(([n]) => n)).toEqual(['Name', 'Data', 'Age']);
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta('cfg'),
      data: { a: '1' },
      binaryData: { b: 'AA==' },
    };
    expect(rows('configmaps', [cm])).toEqual([['cfg', 2, '120m']]);
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('web') };
    expect(rows('serviceaccounts', [sa])).toEqual([['web', 0, '120m']]);
  });

  it('daemonsets, replicasets and deployments', () => {
    const selector = { matchLabels: { 'k8s-app': 'cilium' } };
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: meta('cilium'),
      spec: {
        selector,
        template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } },
      },
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        updatedNumberScheduled: 3,
        numberAvailable: 2,
      },
    };
    expect(headers('daemonsets').map(([n]) => n)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(rows('daemonsets', [ds])).toEqual([
      [
        'cilium',
        3,
        3,
        2,
        3,
        2,
        'kubernetes.io/os=linux',
        '120m',
        'app,proxy',
        'app:1,envoy:1',
        'k8s-app=cilium',
      ],
    ]);
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('web-5d9'),
      spec: { template, selector: {} },
      status: { replicas: 2 },
    };
    expect(headers('replicasets').map(([n]) => n)).toEqual([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(rows('replicasets', [rs])).toEqual([
      ['web-5d9', 1, 2, 0, '120m', 'app,proxy', 'app:1,envoy:1', '<none>'],
    ]);
    const deploy = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta('web'),
      spec: { replicas: 3, template, selector: { matchLabels: { app: 'web' } } },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(headers('deployments').map(([n]) => n)).toEqual([
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers',
      'Images',
      'Selector',
    ]);
    expect(rows('deployments', [deploy])).toEqual([
      ['web', '2/3', 3, 2, '120m', 'app,proxy', 'app:1,envoy:1', 'app=web'],
    ]);
  });

  it('events, pod disruption budgets and network policies', () => {
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta('web-1.18a'),
      involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{app}' },
      reason: 'BackOff',
      message: ' Back-off restarting failed container \n',
      type: 'Warning',
      source: { component: 'kubelet', host: 'ip-10-0-1-5' },
      firstTimestamp: ago(600),
      lastTimestamp: ago(30),
      count: 12,
    };
    expect(headers('events')).toEqual([
      ['Last Seen', 'string', 0],
      ['Type', 'string', 0],
      ['Reason', 'string', 0],
      ['Object', 'string', 0],
      ['Subobject', 'string', 1],
      ['Source', 'string', 1],
      ['Message', 'string', 0],
      ['First Seen', 'string', 1],
      ['Count', 'string', 1],
      ['Name', 'string', 1],
    ]);
    const singleton = {
      ...event,
      source: {},
      reportingComponent: 'cilium-operator',
      firstTimestamp: null,
      lastTimestamp: null,
      count: 0,
      eventTime: ago(45),
    };
    expect(rows('events', [event, singleton])).toEqual([
      [
        '30s',
        'Warning',
        'BackOff',
        'pod/web-1',
        'spec.containers{app}',
        'kubelet, ip-10-0-1-5',
        'Back-off restarting failed container',
        '10m',
        12,
        'web-1.18a',
      ],
      [
        '45s',
        'Warning',
        'BackOff',
        'pod/web-1',
        'spec.containers{app}',
        'cilium-operator',
        'Back-off restarting failed container',
        '45s',
        1,
        'web-1.18a',
      ],
    ]);
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta('web'),
      spec: { minAvailable: '50%' },
      status: { disruptionsAllowed: 1 },
    };
    expect(headers('poddisruptionbudgets')).toEqual([
      ['Name', 'string', 0],
      ['Min Available', 'string', 0],
      ['Max Unavailable', 'string', 0],
      ['Allowed Disruptions', 'integer', 0],
      ['Age', 'string', 0],
    ]);
    expect(rows('poddisruptionbudgets', [pdb])).toEqual([['web', '50%', 'N/A', 1, '120m']]);
    const policy = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: meta('deny'),
      spec: { podSelector: {} },
    };
    expect(headers('networkpolicies').map(([n]) => n)).toEqual(['Name', 'Pod-Selector', 'Age']);
    expect(rows('networkpolicies', [policy])).toEqual([['deny', '<none>', '120m']]);
  });
});

describe('table envelope', () => {
  const object = pod('web-1', { phase: 'Running' }, {}, { labels: { app: 'web' }, annotations: { a: 'b' } });

  it('carries kind, apiVersion and list metadata', () => {
    const table = toTable('pods', [object], {
      now: NOW,
      resourceVersion: '100',
      continue: 'tok',
      remainingItemCount: 3,
    });
    expect(table.kind).toBe('Table');
    expect(table.apiVersion).toBe('meta.k8s.io/v1');
    expect(table.metadata).toEqual({ resourceVersion: '100', continue: 'tok', remainingItemCount: 3 });
    expect(toTable('pods', [], { now: NOW, resourceVersion: '' })).toMatchObject({ metadata: {}, rows: [] });
  });

  it('puts PartialObjectMetadata, the object or null in each row per includeObject', () => {
    const render = (includeObject?: 'None' | 'Metadata' | 'Object') =>
      toTable('pods', [object], {
        now: NOW,
        resourceVersion: '1',
        ...(includeObject ? { includeObject } : {}),
      }).rows[0]?.object;
    const partial = {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: object.metadata,
    };
    expect(render()).toEqual(partial);
    expect(render('Metadata')).toEqual(partial);
    expect(render('Object')).toBe(object);
    expect(render('None')).toBeNull();
  });

  it('validates includeObject as the Table transform does', () => {
    expect(parseIncludeObject(null)).toBe('Metadata');
    expect(parseIncludeObject('')).toBe('Metadata');
    expect(parseIncludeObject('Object')).toBe('Object');
    let error: unknown;
    try {
      parseIncludeObject('object');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(400);
    expect((error as ApiError).message).toBe(
      'Unable to convert to Table as requested: includeObject: Unsupported value: "object": supported values: "Metadata", "None", "Object"',
    );
  });
});

describe('partial object metadata', () => {
  const object = pod('web-1', {}, {}, { labels: { app: 'web' } });

  it('keeps the whole ObjectMeta under meta.k8s.io/v1', () => {
    expect(toPartialObjectMetadata(object)).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: object.metadata,
    });
  });

  it('lists items as PartialObjectMetadata with the list metadata', () => {
    const list = toPartialObjectMetadataList([object], { resourceVersion: '9', continue: 'next' });
    expect(list).toEqual({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '9', continue: 'next' },
      items: [toPartialObjectMetadata(object)],
    });
  });
});

describe('negotiate', () => {
  const KUBECTL_GET =
    'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
  const CLIENT_NODE = 'application/json, */*;q=0.8';
  const KUBECTL_TYPED = 'application/vnd.kubernetes.protobuf,application/json';
  const PARTIAL_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
  const PARTIAL = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

  it.each([
    [undefined, true, 'json'],
    ['', false, 'json'],
    [KUBECTL_GET, true, 'table'],
    [KUBECTL_GET, false, 'table'],
    [CLIENT_NODE, true, 'json'],
    [KUBECTL_TYPED, false, 'json'],
    ['*/*', true, 'json'],
    ['application/*', false, 'json'],
    ['application/json;stream=watch', true, 'json'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', true, 'table'],
    [PARTIAL_LIST, true, 'partial-list'],
    [PARTIAL_LIST, false, 'json'],
    [PARTIAL, false, 'partial'],
    [PARTIAL, true, 'json'],
    ['application/json;as=Table;v=v2;g=meta.k8s.io,application/json', true, 'json'],
    ['application/json;as=Table,application/json', true, 'json'],
    ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', false, 'json'],
    // A lower q still comes first when the other clause is a wildcard: goautoneg's ordering.
    ['*/*;q=1,application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5', true, 'table'],
    ['application/json;q=0.5,application/json;as=Table;v=v1;g=meta.k8s.io', true, 'table'],
  ])('%j (list: %s) gives %s', (header, isList, expected) => {
    expect(negotiate(header, isList)).toBe(expected);
  });

  it.each([
    'application/vnd.kubernetes.protobuf',
    'application/yaml',
    'text/plain',
    'application/json;as=Table;g=meta.k8s.io;v=v1;stream=other',
    'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1',
  ])('answers %j with 406', (header) => {
    let error: unknown;
    try {
      negotiate(header, false);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(406);
    expect((error as ApiError).reason).toBe('NotAcceptable');
    expect((error as ApiError).message).toBe(
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    );
  });
});

/** Serves just enough discovery for kubectl, and Tables for the pods and ciliumendpoints lists. */
function fakeApiServer(tables: Record<string, unknown>): Server {
  const resource = (name: string, kind: string, namespaced: boolean) => ({
    name,
    singularName: kind.toLowerCase(),
    namespaced,
    kind,
    verbs: ['get', 'list'],
  });
  const documents: Record<string, unknown> = {
    '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
    '/apis': {
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [
        {
          name: 'cilium.io',
          versions: [{ groupVersion: 'cilium.io/v2', version: 'v2' }],
          preferredVersion: { groupVersion: 'cilium.io/v2', version: 'v2' },
        },
      ],
    },
    '/api/v1': { kind: 'APIResourceList', groupVersion: 'v1', resources: [resource('pods', 'Pod', true)] },
    '/apis/cilium.io/v2': {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'cilium.io/v2',
      resources: [resource('ciliumendpoints', 'CiliumEndpoint', true)],
    },
    ...tables,
  };
  return createServer((req, res) => {
    const body = documents[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify(
        body ?? { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound' },
      ),
    );
  });
}

const kubectlAvailable = await promisify(execFile)('kubectl', ['version', '--client'])
  .then(() => true)
  .catch(() => false);

describe.skipIf(!kubectlAvailable)('kubectl renders the tables', () => {
  let server: Server;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // kubectl prints the cells as served, so they are rendered against the real clock.
    const now = new Date();
    const ready = pod(
      'web-1',
      {
        phase: 'Running',
        podIPs: [{ ip: '10.0.1.20' }],
        containerStatuses: [
          {
            name: 'app',
            ready: true,
            restartCount: 2,
            state: running,
            lastState: { terminated: { finishedAt: before(now, 150) } },
          },
        ],
      },
      {},
      { creationTimestamp: before(now, 300) },
    );
    const cep: KubeObject = {
      apiVersion: 'cilium.io/v2',
      kind: 'CiliumEndpoint',
      metadata: { name: 'web-1', namespace: 'shop' },
      status: {
        identity: { id: 48861 },
        state: 'ready',
        networking: { addressing: [{ ipv4: '10.0.1.20' }] },
      },
    };
    server = fakeApiServer({
      '/api/v1/namespaces/shop/pods': toTable('pods', [ready], { now, resourceVersion: '5' }),
      '/apis/cilium.io/v2/namespaces/shop/ciliumendpoints': toTable('ciliumendpoints', [cep], {
        now,
        resourceVersion: '5',
      }),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const home = mkdtempSync(join(tmpdir(), 'kubectl-table-'));
    const kubeconfig = join(home, 'config');
    const { port } = server.address() as AddressInfo;
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
        users: [{ name: 'u', user: {} }],
        contexts: [{ name: 'sim', context: { cluster: 'c', user: 'u', namespace: 'shop' } }],
        'current-context': 'sim',
      }),
    );
    env = { PATH: process.env.PATH, HOME: home, KUBECONFIG: kubeconfig };
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const kubectl = async (...args: string[]) => (await promisify(execFile)('kubectl', args, { env })).stdout;

  it('pods, plain and wide', async () => {
    expect((await kubectl('get', 'pods')).split('\n').map((line) => line.split(/\s{2,}/))).toEqual([
      ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['web-1', '1/1', 'Running', '2 (2m30s ago)', '5m'],
      [''],
    ]);
    const wide = (await kubectl('get', 'pods', '-o', 'wide')).split('\n');
    expect(wide[0]?.split(/\s{2,}/)).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    expect(wide[1]?.split(/\s{2,}/).slice(5)).toEqual([
      '10.0.1.20',
      'ip-10-0-1-5.ec2.internal',
      '<none>',
      '<none>',
    ]);
  });

  it('ciliumendpoints, with null cells left blank', async () => {
    const lines = (await kubectl('get', 'ciliumendpoints')).split('\n').map((line) => line.split(/\s{2,}/));
    expect(lines.slice(0, 2)).toEqual([
      ['NAME', 'SECURITY IDENTITY', 'ENDPOINT STATE', 'IPV4', 'IPV6'],
      ['web-1', '48861', 'ready', '10.0.1.20', ''],
    ]);
  });
});
