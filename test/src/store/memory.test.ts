import { memoryStore } from '../../../src/store/index.ts';
import { describeStateStore } from './state-store-suite.ts';

describeStateStore('memoryStore', async () => memoryStore());
