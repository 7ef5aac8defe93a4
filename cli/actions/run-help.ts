import { runbookById } from '../../runbooks/index.ts';
import { paramsHelp } from '../format/params-help.ts';

/** `run <runbook> --help`'s own part: the params that runbook takes. */
export function runbookParamsHelp(runbook: string): string {
  return paramsHelp(runbook, runbookById(runbook).params);
}
