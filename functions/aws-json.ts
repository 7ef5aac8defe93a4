import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AwsKeys, signedHeaders } from './sigv4.ts';

/**
 * One call to an AWS service's JSON API (Secrets Manager, SQS, DynamoDB speak it), signed with
 * the function's own credentials as Lambda hands them over (its environment). A cold start that
 * only reads its secrets makes this call instead of loading an SDK client: the client's modules
 * and its first request's configuration chain were most of the http function's cold start.
 */
export interface AwsJsonCall {
  /** The signing name and the endpoint's prefix, e.g. `secretsmanager`. */
  service: string;
  /** The X-Amz-Target, e.g. `secretsmanager.GetSecretValue`. */
  target: string;
  body: unknown;
  /** The SDK's variable for this service's endpoint, e.g. AWS_ENDPOINT_URL_SECRETS_MANAGER (tests and rehearsals set it). */
  endpointEnv: string;
}

/** An AWS error answer: its `__type` (ResourceNotFoundException...) and message. */
export class AwsJsonError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;
const ATTEMPTS = 3;

function variable(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`environment variable ${name} is not set (Lambda sets it)`);
  return value;
}

function endpointOf(call: AwsJsonCall, region: string): URL {
  const given = process.env[call.endpointEnv] ?? process.env.AWS_ENDPOINT_URL;
  if (given) return new URL(given);
  return new URL(`https://${call.service}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}/`);
}

async function post(url: URL, headers: Record<string, string>, body: string) {
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = send(url, { method: 'POST', headers, timeout: TIMEOUT_MS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url.host} did not answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function attempt(call: AwsJsonCall): Promise<unknown> {
  const region = variable('AWS_REGION');
  const url = endpointOf(call, region);
  const body = JSON.stringify(call.body);
  const keys: AwsKeys = {
    accessKeyId: variable('AWS_ACCESS_KEY_ID'),
    secretAccessKey: variable('AWS_SECRET_ACCESS_KEY'),
    sessionToken: process.env.AWS_SESSION_TOKEN,
  };
  const headers = signedHeaders({
    service: call.service,
    region,
    keys,
    host: url.host,
    path: url.pathname,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': call.target },
    body,
    now: new Date(),
  });
  const { status, text } = await post(url, headers, body);
  const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (status >= 200 && status < 300) return parsed;
  const code = String(parsed.__type ?? `HTTP ${status}`)
    .split('#')
    .pop() as string;
  throw new AwsJsonError(
    code,
    status,
    `${call.target}: ${code}: ${parsed.message ?? parsed.Message ?? text}`,
  );
}

/** Throttling, a service error or a dropped connection: worth the SDK's usual three attempts. */
const retryable = (error: unknown) =>
  !(error instanceof AwsJsonError) || error.status >= 500 || /Throttl|TooManyRequests/.test(error.code);

/** The call's JSON answer; an error answer throws naming its code, after up to three attempts when retryable. */
export async function awsJson(call: AwsJsonCall): Promise<unknown> {
  for (let tried = 1; ; tried++) {
    try {
      return await attempt(call);
    } catch (error) {
      if (tried >= ATTEMPTS || !retryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** tried));
    }
  }
}
