import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
await Promise.all([getSecret(process.env.SECRETS_ID!), getSecret(process.env.OPERATOR_SECRET_ID!)]);
