import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../sim/objects.ts';
import { parseFieldSelector, parseLabelSelector } from '../../../sim/server/selectors.ts';
import { ApiError } from '../../../sim/status.ts';
import {
  goQuote,
  labelSelectorString,
  matchLabelSelectorObject,
} from '../../../src/cluster/label-selector.ts';

/** The ApiError a call throws, so a test can look at its code and message. */
function apiErrorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

function expectBadRequest(run: () => unknown, message: string): void {
  const error = apiErrorOf(run);
  expect(error.code).toBe(400);
  expect(error.reason).toBe('BadRequest');
  expect(error.message).toBe(message);
}

const QUALIFIED_NAME_DETAIL =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_DETAIL =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('parseLabelSelector', () => {
  const labels = { app: 'web', tier: 'front', count: '7' };

  it.each([
    ['app=web', true],
    ['app=api', false],
    ['app==web', true],
    ['app!=web', false],
    ['app!=api', true],
    ['missing!=x', true],
    ['tier in (front,back)', true],
    ['tier in (back)', false],
    ['missing in (x)', false],
    ['tier notin (front)', false],
    ['tier notin (back)', true],
    ['missing notin (x)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['count>5', true],
    ['count>7', false],
    ['count<8', true],
    ['app>1', false],
    ['', true],
    ['   ', true],
  ])('%j against %j is %s', (selector, expected) => {
    expect(parseLabelSelector(selector)(labels)).toBe(expected);
  });

  it('allows whitespace between tokens as the Go lexer does', () => {
    const match = parseLabelSelector('  app = web ,\ttier in ( front , back ) ,!missing ');
    expect(match(labels)).toBe(true);
    expect(match({ app: 'web', tier: 'side' })).toBe(false);
  });

  it('reads an empty value, and empty set members, as the empty string', () => {
    expect(parseLabelSelector('app=')({ app: '' })).toBe(true);
    expect(parseLabelSelector('app=,tier')({ app: '', tier: 'x' })).toBe(true);
    expect(parseLabelSelector('app in ()')({ app: '' })).toBe(true);
    expect(parseLabelSelector('app in (a,,b)')({ app: '' })).toBe(true);
    expect(parseLabelSelector('app in (a,b)')({ app: '' })).toBe(false);
  });

  it('treats in and notin as plain words where a key or value is expected', () => {
    expect(parseLabelSelector('in=notin')({ in: 'notin' })).toBe(true);
    expect(parseLabelSelector('x in (in,notin)')({ x: 'notin' })).toBe(true);
  });

  it('matches objects without labels', () => {
    expect(parseLabelSelector('!app')(undefined)).toBe(true);
    expect(parseLabelSelector('app')(undefined)).toBe(false);
  });

  it.each([
    ['app=web b', "found 'b', expected: ',' or 'end of string'"],
    ['=web', "found '=', expected: !, identifier, or 'end of string'"],
    ['app,', "found '', expected: identifier after ','"],
    ['app,,tier', "found ',', expected: identifier after ','"],
    ['!app=web', "found '=', expected: ',' or 'end of string'"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['app web', "unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt"],
    ['app!web', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
    ['app in web', "unable to parse requirement: found 'web' expected: '('"],
    ['app in (web', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['app in (web tier)', "unable to parse requirement: found 'tier', expected: ',' or ')'"],
    ['app in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['app in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['app=>web', "unable to parse requirement: found '>', expected: identifier"],
  ])('rejects %j with %j', (selector, message) => {
    expectBadRequest(() => parseLabelSelector(selector), message);
  });

  it('rejects invalid keys with the <nil>-path field error kube-apiserver returns', () => {
    expectBadRequest(
      () => parseLabelSelector('app:monolith'),
      `unable to parse requirement: <nil>: Invalid value: "app:monolith": name part ${QUALIFIED_NAME_DETAIL}`,
    );
    expectBadRequest(
      () => parseLabelSelector('a/b/c=d'),
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name ${QUALIFIED_NAME_DETAIL} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    );
    expectBadRequest(
      () => parseLabelSelector('app.kubernetes_io/name=x'),
      "unable to parse requirement: <nil>: Invalid value: \"app.kubernetes_io/name\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    expectBadRequest(
      () => parseLabelSelector('/app'),
      'unable to parse requirement: <nil>: Invalid value: "/app": prefix part must be non-empty',
    );
    expectBadRequest(
      () => parseLabelSelector('app/'),
      `unable to parse requirement: <nil>: Invalid value: "app/": name part must be non-empty; name part ${QUALIFIED_NAME_DETAIL}`,
    );
    expectBadRequest(
      () => parseLabelSelector(`${'k'.repeat(64)}=v`),
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`,
    );
  });

  it('rejects invalid values under values[i][key], aggregating several', () => {
    expectBadRequest(
      () => parseLabelSelector('app=a@b'),
      `unable to parse requirement: values[0][app]: Invalid value: "a@b": ${LABEL_VALUE_DETAIL}`,
    );
    expectBadRequest(
      () => parseLabelSelector(`app=${'v'.repeat(64)}`),
      `unable to parse requirement: values[0][app]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    );
    // Values are sorted before validation, as sets.String.List() orders them.
    expectBadRequest(
      () => parseLabelSelector('app in (z@,a@)'),
      `unable to parse requirement: [values[0][app]: Invalid value: "a@": ${LABEL_VALUE_DETAIL}, values[1][app]: Invalid value: "z@": ${LABEL_VALUE_DETAIL}]`,
    );
  });

  it('rejects non-integer values for > and <', () => {
    expectBadRequest(
      () => parseLabelSelector('count>many'),
      `unable to parse requirement: values[0]: Invalid value: "many": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
    expectBadRequest(
      () => parseLabelSelector('count<'),
      `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
  });
});

describe('goQuote', () => {
  it('quotes like strconv.Quote', () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('tab\there\n')).toBe('"tab\\there\\n"');
    expect(goQuote('\x01\x7f')).toBe('"\\x01\\x7f"');
    expect(goQuote('caf\u00e9')).toBe('"caf\u00e9"');
    expect(goQuote('nb\u00a0sp')).toBe('"nb\\u00a0sp"');
  });
});

function pod(
  overrides: { name?: string; namespace?: string; spec?: object; status?: object } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: overrides.name ?? 'web-1', namespace: overrides.namespace ?? 'shop' },
    spec: {
      nodeName: 'ip-10-0-1-5.ec2.internal',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'web',
      containers: [{ name: 'web' }],
      ...overrides.spec,
    },
    status: { phase: 'Running', podIP: '10.0.1.20', podIPs: [{ ip: '10.0.1.20' }], ...overrides.status },
  };
}

describe('parseFieldSelector', () => {
  it.each([
    ['metadata.name=web-1', true],
    ['metadata.name==web-1', true],
    ['metadata.name!=web-1', false],
    ['metadata.namespace=shop', true],
    ['metadata.namespace=other', false],
    ['spec.nodeName=ip-10-0-1-5.ec2.internal', true],
    ['spec.host=ip-10-0-1-5.ec2.internal', true],
    ['spec.restartPolicy=Always', true],
    ['spec.schedulerName=default-scheduler', true],
    ['spec.serviceAccountName=web', true],
    ['spec.hostNetwork=false', true],
    ['spec.hostNetwork=true', false],
    ['status.phase=Running', true],
    ['status.phase!=Running', false],
    ['status.podIP=10.0.1.20', true],
    ['status.nominatedNodeName=', true],
    ['status.phase=Running,spec.nodeName=ip-10-0-1-5.ec2.internal', true],
    ['status.phase=Running,spec.nodeName=elsewhere', false],
    ['', true],
    [',', true],
  ])('pods: %j is %s', (selector, expected) => {
    expect(parseFieldSelector('pods', selector)(pod())).toBe(expected);
  });

  it('compares hostNetwork as the string "true" or "false"', () => {
    const hostPod = pod({ spec: { hostNetwork: true } });
    expect(parseFieldSelector('pods', 'spec.hostNetwork=true')(hostPod)).toBe(true);
    expect(parseFieldSelector('pods', 'spec.hostNetwork!=true')(pod())).toBe(true);
  });

  it('takes the pod IP from podIPs, falling back to podIP', () => {
    const onlyPodIP = pod({ status: { podIP: '10.0.9.9', podIPs: undefined } });
    expect(parseFieldSelector('pods', 'status.podIP=10.0.9.9')(onlyPodIP)).toBe(true);
    const unscheduled = pod({
      spec: { nodeName: undefined },
      status: { podIP: undefined, podIPs: undefined },
    });
    expect(parseFieldSelector('pods', 'spec.nodeName=,status.podIP=')(unscheduled)).toBe(true);
  });

  it('accepts status.podIPs, which no pod field carries, so only the empty value matches', () => {
    expect(parseFieldSelector('pods', 'status.podIPs=10.0.1.20')(pod())).toBe(false);
    expect(parseFieldSelector('pods', 'status.podIPs=')(pod())).toBe(true);
  });

  it('unescapes values', () => {
    const odd = pod({ name: 'a,b=c\\d' });
    expect(parseFieldSelector('pods', 'metadata.name=a\\,b\\=c\\\\d')(odd)).toBe(true);
  });

  it.each([
    'spec.containers',
    'spec.priority',
    'spec.nodeSelector',
    'status.hostIP',
    'status.startTime',
    'status.qosClass',
    'metadata.uid',
    'metadata.labels',
    'metadata.annotations',
    'metadata.generateName',
    'name',
  ])('pods: %s gives the 400 kube-apiserver gives', (label) => {
    expectBadRequest(() => parseFieldSelector('pods', `${label}=x`), `field label not supported: ${label}`);
  });

  it('reports the first unsupported label in sorted term order', () => {
    expectBadRequest(
      () => parseFieldSelector('pods', 'zzz=1,spec.bogus=2'),
      'field label not supported: spec.bogus',
    );
  });

  it.each([
    ['status.phase', "invalid selector: 'status.phase'; can't understand 'status.phase'"],
    ['a=b,status.phase', "invalid selector: 'a=b,status.phase'; can't understand 'status.phase'"],
    ['metadata.name=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['metadata.name=a\\', 'invalid field selector: invalid escape sequence: \\'],
    ['metadata.name=a\\x', 'invalid field selector: invalid escape sequence: \\x'],
  ])('rejects the syntax of %j', (selector, message) => {
    expectBadRequest(() => parseFieldSelector('pods', selector), message);
  });

  const node: KubeObject = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'ip-10-0-1-5.ec2.internal' },
    spec: { unschedulable: true },
  };

  it('nodes: metadata.name and spec.unschedulable only', () => {
    expect(parseFieldSelector('nodes', 'spec.unschedulable=true')(node)).toBe(true);
    expect(parseFieldSelector('nodes', 'spec.unschedulable=false')({ ...node, spec: {} })).toBe(true);
    expect(parseFieldSelector('nodes', 'metadata.name=ip-10-0-1-5.ec2.internal')(node)).toBe(true);
    expectBadRequest(
      () => parseFieldSelector('nodes', 'metadata.namespace='),
      'field label not supported: metadata.namespace',
    );
    expectBadRequest(
      () => parseFieldSelector('nodes', 'spec.podCIDR=x'),
      'field label not supported: spec.podCIDR',
    );
  });

  const event: KubeObject = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-1.17f', namespace: 'shop' },
    involvedObject: {
      kind: 'Pod',
      namespace: 'shop',
      name: 'web-1',
      uid: 'u-1',
      apiVersion: 'v1',
      resourceVersion: '42',
      fieldPath: 'spec.containers{web}',
    },
    reason: 'BackOff',
    type: 'Warning',
    source: { component: 'kubelet', host: 'ip-10-0-1-5.ec2.internal' },
  };

  it.each([
    'involvedObject.kind=Pod',
    'involvedObject.namespace=shop',
    'involvedObject.name=web-1',
    'involvedObject.uid=u-1',
    'involvedObject.apiVersion=v1',
    'involvedObject.resourceVersion=42',
    'involvedObject.fieldPath=spec.containers{web}',
    'reason=BackOff',
    'type=Warning',
    'source=kubelet',
    'reportingComponent=',
    'metadata.namespace=shop',
    'metadata.name=web-1.17f',
  ])('events: %s matches', (selector) => {
    expect(parseFieldSelector('events', selector)(event)).toBe(true);
  });

  it('events: source falls back to reportingComponent', () => {
    const modern = { ...event, source: {}, reportingComponent: 'cilium-operator' };
    expect(parseFieldSelector('events', 'source=cilium-operator')(modern)).toBe(true);
    expectBadRequest(() => parseFieldSelector('events', 'message=x'), 'field label not supported: message');
  });

  it('namespaces: status.phase and metadata.name only', () => {
    const ns: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop' },
      status: { phase: 'Active' },
    };
    expect(parseFieldSelector('namespaces', 'status.phase=Active')(ns)).toBe(true);
    expectBadRequest(
      () => parseFieldSelector('namespaces', 'metadata.namespace=shop'),
      'field label not supported: metadata.namespace',
    );
  });

  it('kinds without a conversion (replicasets, configmaps, ...) use the default message', () => {
    for (const plural of ['replicasets', 'configmaps', 'daemonsets', 'deployments', 'networkpolicies']) {
      expectBadRequest(
        () => parseFieldSelector(plural, 'status.replicas=0'),
        '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"',
      );
    }
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', namespace: 'shop' },
    };
    expect(parseFieldSelector('configmaps', 'metadata.namespace=shop,metadata.name=cfg')(cm)).toBe(true);
  });

  it('custom resources: metadata.name, and metadata.namespace when namespaced', () => {
    const cep: KubeObject = {
      apiVersion: 'cilium.io/v2',
      kind: 'CiliumEndpoint',
      metadata: { name: 'web-1', namespace: 'shop' },
    };
    expect(parseFieldSelector('ciliumendpoints', 'metadata.namespace=shop,metadata.name=web-1')(cep)).toBe(
      true,
    );
    expectBadRequest(
      () => parseFieldSelector('ciliumendpoints', 'status.state=ready'),
      'field label not supported: status.state',
    );
    expectBadRequest(
      () => parseFieldSelector('ciliumnodes', 'metadata.namespace='),
      'field label not supported: metadata.namespace',
    );
  });
});

describe('matchLabelSelectorObject', () => {
  const labels = { app: 'web', tier: 'front' };

  it('matches matchLabels and every expression operator', () => {
    expect(matchLabelSelectorObject({ matchLabels: { app: 'web' } }, labels)).toBe(true);
    expect(matchLabelSelectorObject({ matchLabels: { app: 'api' } }, labels)).toBe(false);
    const expressions = (operator: string, values?: string[]) => ({
      matchExpressions: [{ key: 'tier', operator, ...(values ? { values } : {}) }],
    });
    expect(matchLabelSelectorObject(expressions('In', ['front', 'back']), labels)).toBe(true);
    expect(matchLabelSelectorObject(expressions('In', ['back']), labels)).toBe(false);
    expect(matchLabelSelectorObject(expressions('NotIn', ['back']), labels)).toBe(true);
    expect(matchLabelSelectorObject(expressions('NotIn', ['front']), labels)).toBe(false);
    expect(matchLabelSelectorObject(expressions('Exists'), labels)).toBe(true);
    expect(matchLabelSelectorObject(expressions('DoesNotExist'), labels)).toBe(false);
    expect(matchLabelSelectorObject(expressions('DoesNotExist'), {})).toBe(true);
  });

  it('ANDs matchLabels with matchExpressions', () => {
    const selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['back'] }],
    };
    expect(matchLabelSelectorObject(selector, labels)).toBe(false);
  });

  it('empty matches everything, null nothing, and an unconvertible selector nothing', () => {
    expect(matchLabelSelectorObject({}, undefined)).toBe(true);
    expect(matchLabelSelectorObject(null, labels)).toBe(false);
    expect(matchLabelSelectorObject(undefined, labels)).toBe(false);
    expect(matchLabelSelectorObject({ matchExpressions: [{ key: 'tier', operator: 'Gt' }] }, labels)).toBe(
      false,
    );
    expect(matchLabelSelectorObject({ matchExpressions: [{ key: 'tier', operator: 'In' }] }, labels)).toBe(
      false,
    );
    expect(
      matchLabelSelectorObject(
        { matchExpressions: [{ key: 'tier', operator: 'Exists', values: ['x'] }] },
        labels,
      ),
    ).toBe(false);
  });
});

describe('labelSelectorString', () => {
  it('prints like labels.Selector.String(), sorted by key', () => {
    expect(
      labelSelectorString({
        matchLabels: { 'k8s-app': 'cilium' },
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['b', 'a'] },
          { key: 'arch', operator: 'In', values: ['arm64'] },
          { key: 'gpu', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists' },
        ],
      }),
    ).toBe('arch in (arm64),!gpu,k8s-app=cilium,tier notin (a,b),zone');
    expect(labelSelectorString({})).toBe('');
    expect(labelSelectorString(undefined)).toBe('');
    expect(labelSelectorString({ matchExpressions: [{ key: 'x', operator: 'Nope' }] })).toBeUndefined();
  });
});
