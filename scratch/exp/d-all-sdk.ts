import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
await Promise.all([getSecret(process.env.SECRETS_ID!), getSecret(process.env.OPERATOR_SECRET_ID!)]);
new DynamoDBClient({}); new SQSClient({});
