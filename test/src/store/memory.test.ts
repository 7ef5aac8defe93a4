import { memoryStore } from '../../../src/store/index.ts';
import { describeRunPages } from './run-pages-suite.ts';
import { describeStateStore } from './state-store-suite.ts';

describeStateStore('memoryStore', async () => memoryStore());
describeRunPages('memoryStore', async () => memoryStore());
