import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sim, startSim } from '../../../sim/index.ts';
import { connect } from '../../../src/cluster/connect.ts';
import { startFakeAws } from '../../helpers/fake-aws.ts';

// AWS's documented example keys.
const CALLER = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const ROLE = {
  accessKeyId: 'ASIAROLEEXAMPLE00001',
  secretAccessKey: 'role/secret/EXAMPLEKEY',
  sessionToken: 'FwoGZXIvYXdzEXAMPLE/role+session==',
  expiration: new Date(Date.now() + 60 * 60_000),
};
const ROLE_ARN = 'arn:aws:iam::111122223333:role/cilium-responder-prod-eu';
const ENDPOINT_VARIABLES = ['AWS_ENDPOINT_URL_STS', 'AWS_ENDPOINT_URL_EKS', 'AWS_ENDPOINT_URL_EC2'];

describe('every AWS call made for a cluster uses that cluster’s credentials and region', () => {
  let sim: Sim;
  let aws: Awaited<ReturnType<typeof startFakeAws>>;
  beforeAll(async () => {
    sim = await startSim({ scenarios: ['healthy'] });
    aws = await startFakeAws({
      role: ROLE,
      cluster: { endpoint: sim.url, caData: Buffer.from(sim.caPem).toString('base64') },
    });
    for (const name of ENDPOINT_VARIABLES) process.env[name] = aws.url;
  });
  afterAll(async () => {
    for (const name of ENDPOINT_VARIABLES) delete process.env[name];
    await aws.close();
    await sim.close();
  });
  afterEach(() => {
    aws.calls.length = 0;
  });

  it('with roleArn: DescribeCluster and the EC2 reads are signed by the assumed role, in the cluster’s region', async () => {
    const access = await connect(
      { kind: 'eks', name: 'prod-eu', region: 'eu-west-1', roleArn: ROLE_ARN },
      { credentials: async () => CALLER },
    );
    await access.aws?.ec2.instanceNetworks(['i-0123456789abcdef0']);
    await access.aws?.ec2.securityGroups(['sg-0123456789abcdef0']);

    expect(
      aws.calls.map(({ service, accessKeyId, region, action }) => [service, accessKeyId, region, action]),
    ).toEqual([
      ['sts', CALLER.accessKeyId, 'eu-west-1', 'AssumeRole'],
      ['eks', ROLE.accessKeyId, 'eu-west-1', 'GET /clusters/prod-eu'],
      ['ec2', ROLE.accessKeyId, 'eu-west-1', 'DescribeInstances'],
      ['ec2', ROLE.accessKeyId, 'eu-west-1', 'DescribeSecurityGroups'],
    ]);
    expect(access.aws?.region).toBe('eu-west-1');
  });

  it('without roleArn: the caller’s own credentials, and no AssumeRole', async () => {
    const access = await connect(
      { kind: 'eks', name: 'prod-us', region: 'us-east-2' },
      { credentials: async () => CALLER },
    );
    await access.aws?.ec2.instanceNetworks(['i-0123456789abcdef0']);
    expect(aws.calls.map(({ service, accessKeyId, region }) => [service, accessKeyId, region])).toEqual([
      ['eks', CALLER.accessKeyId, 'us-east-2'],
      ['ec2', CALLER.accessKeyId, 'us-east-2'],
    ]);
  });

  it('a kubeconfig cluster with an AWS side reads EC2 with its role', async () => {
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const path = join(await mkdtemp(join(tmpdir(), 'creds-')), 'kubeconfig');
    await writeFile(path, sim.kubeconfig());
    const access = await connect(
      { kind: 'kubeconfig', path, aws: { region: 'ap-southeast-2', roleArn: ROLE_ARN } },
      { credentials: async () => CALLER },
    );
    await access.aws?.ec2.securityGroups(['sg-1']);
    expect(aws.calls.map(({ service, accessKeyId, region }) => [service, accessKeyId, region])).toEqual([
      ['sts', CALLER.accessKeyId, 'ap-southeast-2'],
      ['ec2', ROLE.accessKeyId, 'ap-southeast-2'],
    ]);
  });
});
