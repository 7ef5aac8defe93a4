import { Logger } from '@aws-lambda-powertools/logger';
new Logger({ serviceName: 'x' }).info('x');
