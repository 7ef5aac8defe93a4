import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One signed call as the stand-in saw it: which service, region and access key signed it. */
export interface SignedCall {
  service: string;
  region: string;
  accessKeyId: string;
  action: string;
}

export interface FakeAwsOptions {
  /** What AssumeRole hands out. */
  role?: { accessKeyId: string; secretAccessKey: string; sessionToken: string; expiration: Date };
  /** What DescribeCluster answers for any cluster name it may describe. */
  cluster: { endpoint: string; caData: string };
  /** The clusters DescribeCluster may describe (as IAM would decide); others are AccessDenied. Default: any. */
  describable?: (name: string) => boolean;
  /** The secret's JSON (Secrets Manager GetSecretValue), whatever the SecretId. */
  secret?: Record<string, string>;
  /** SecretString by SecretId, as put; wins over `secret` for the ids it has. Changes are seen at once. */
  secrets?: Map<string, string>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * STS, EKS, EC2, SQS and Secrets Manager on one loopback port, answering as AWS does (query/XML for STS and EC2, REST
 * JSON for EKS), and noting the credential scope of every signature: the test reads which
 * credentials each call was made with. Point the SDK at it with AWS_ENDPOINT_URL_<SERVICE>.
 */
export async function startFakeAws(options: FakeAwsOptions) {
  const calls: SignedCall[] = [];
  /** SQS SendMessage bodies, by queue URL. */
  const sent = new Map<string, string[]>();
  const server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const scope = /Credential=([^/]+)\/\d{8}\/([^/]+)\/([^/]+)\//.exec(request.headers.authorization ?? '');
    const [, accessKeyId = '', region = '', service = ''] = scope ?? [];
    const target = String(request.headers['x-amz-target'] ?? '');
    const action =
      target.split('.').pop() ||
      (new URLSearchParams(body).get('Action') ?? `${request.method} ${(request.url ?? '').split('?')[0]}`);
    calls.push({ service, region, accessKeyId, action });
    const json = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(JSON.stringify(payload));
    };
    if (service === 'secretsmanager' && action === 'BatchGetSecretValue') {
      // As Secrets Manager answers: the secrets it has, and an error for each it has not.
      const ids = (JSON.parse(body) as { SecretIdList: string[] }).SecretIdList;
      const held = (id: string) =>
        options.secrets?.get(id) ?? (options.secret ? JSON.stringify(options.secret) : undefined);
      return json(200, {
        SecretValues: ids.flatMap((id) => {
          const text = held(id);
          return text === undefined ? [] : [{ ARN: id, Name: id.split(':').pop(), SecretString: text }];
        }),
        Errors: ids
          .filter((id) => held(id) === undefined)
          .map((id) => ({
            SecretId: id,
            ErrorCode: 'ResourceNotFoundException',
            Message: "Secrets Manager can't find the specified secret.",
          })),
      });
    }
    if (service === 'secretsmanager') {
      const id = (JSON.parse(body) as { SecretId: string }).SecretId;
      const put = options.secrets?.get(id);
      if (options.secrets && put === undefined && !options.secret)
        return json(400, {
          __type: 'ResourceNotFoundException',
          message: "Secrets Manager can't find the specified secret.",
        });
      return json(200, {
        ARN: options.secrets ? id : 'arn:aws:secretsmanager:eu-west-1:111122223333:secret:responder',
        SecretString: put ?? JSON.stringify(options.secret ?? {}),
      });
    }
    if (service === 'sqs' && action === 'SendMessage') {
      const input = JSON.parse(body) as { QueueUrl: string; MessageBody: string };
      sent.set(input.QueueUrl, [...(sent.get(input.QueueUrl) ?? []), input.MessageBody]);
      return json(200, {
        MessageId: `m-${calls.length}`,
        MD5OfMessageBody: createHash('md5').update(input.MessageBody).digest('hex'),
      });
    }
    if (service === 'sts' && options.role) {
      const { role } = options;
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(
        `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>${role.accessKeyId}</AccessKeyId><SecretAccessKey>${role.secretAccessKey}</SecretAccessKey><SessionToken>${role.sessionToken}</SessionToken><Expiration>${role.expiration.toISOString()}</Expiration></Credentials><AssumedRoleUser><Arn>arn:aws:sts::111122223333:assumed-role/responder/cilium-responder</Arn><AssumedRoleId>AROAEXAMPLE:cilium-responder</AssumedRoleId></AssumedRoleUser></AssumeRoleResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></AssumeRoleResponse>`,
      );
      return;
    }
    if (service === 'eks') {
      const name = decodeURIComponent((request.url ?? '').split('?')[0]?.split('/').pop() ?? '');
      if (options.describable && !options.describable(name)) {
        response.writeHead(403, {
          'content-type': 'application/json',
          'x-amzn-errortype': 'AccessDeniedException',
        });
        response.end(
          JSON.stringify({
            message: `User is not authorized to perform: eks:DescribeCluster on resource ${name}`,
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          cluster: {
            name,
            status: 'ACTIVE',
            endpoint: options.cluster.endpoint,
            certificateAuthority: { data: options.cluster.caData },
          },
        }),
      );
      return;
    }
    if (service === 'ec2') {
      const tag = action === 'DescribeSecurityGroups' ? 'securityGroupInfo' : 'reservationSet';
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(
        `<${action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>r-2</requestId><${tag}/></${action}Response>`,
      );
      return;
    }
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ message: `no such service: ${service}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    calls,
    sent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
