const marks: [string, number][] = [['entry', performance.now()]];
const mark = (n: string) => marks.push([n, performance.now()]);
const { Hono } = await import('hono'); new Hono(); mark('hono');
const z = await import('zod'); z.object({ a: z.string() }).parse({ a: 'x' }); mark('zod');
const { Logger } = await import('@aws-lambda-powertools/logger'); new Logger({ serviceName: 'x' }); mark('logger');
const { DynamoDBClient, GetItemCommand } = await import('@aws-sdk/client-dynamodb'); mark('dynamodb module');
const ddb = new DynamoDBClient({}); mark('dynamodb client');
const { SQSClient, SendMessageCommand } = await import('@aws-sdk/client-sqs'); mark('sqs module');
const sqs = new SQSClient({}); mark('sqs client');
const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets'); mark('secrets module');
await Promise.all([getSecret(process.env.SECRETS_ID!), getSecret(process.env.OPERATOR_SECRET_ID!)]); mark('2 secrets');
await sqs.send(new SendMessageCommand({ QueueUrl: process.env.QUEUE_URL!, MessageBody: 'x' })); mark('sqs send');
await ddb.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'x' } } })).catch(() => {}); mark('ddb get');
let prev = 0; const out: Record<string, number> = {};
for (const [n, t] of marks) { out[n] = Math.round((t - prev) * 10) / 10; prev = t; }
out.cpu = Math.round((process.cpuUsage().user + process.cpuUsage().system) / 100) / 10;
console.log(JSON.stringify(out));
