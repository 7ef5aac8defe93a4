import { RUNBOOKS } from '../runbooks/index.ts';
import { workerHandler } from './worker-handler.ts';

/** The worker with the built-in runbooks (a stack with a team's runbooks bundles its own entry). */
export const handler = await workerHandler(RUNBOOKS);
