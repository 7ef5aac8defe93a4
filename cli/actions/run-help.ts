import { RUNBOOKS } from '../../runbooks/index.ts';
import { paramsHelp } from '../format/params-help.ts';
import { localSetup } from '../local-app.ts';

/**
 * `run <runbook> --help`'s own part: the params that runbook takes. A team's runbook is found in
 * the config (`--config`, else responder.config.yaml), so its params are listed as the built-in
 * ones are; the config is read only for such a runbook.
 */
export async function runbookParamsHelp(runbook: string, configPath: string | undefined): Promise<string> {
  const builtIn = RUNBOOKS.find((candidate) => candidate.id === runbook);
  if (builtIn) return paramsHelp(runbook, builtIn.params);
  const { runbooks } = await localSetup(configPath);
  const team = runbooks.runbooks.find((candidate) => candidate.id === runbook);
  if (!team) throw new Error(`unknown runbook "${runbook}"; known runbooks: ${runbooks.ids.join(', ')}`);
  return paramsHelp(runbook, team.params);
}
