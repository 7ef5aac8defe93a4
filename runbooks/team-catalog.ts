import * as z from 'zod';
import type { RunbookInfo } from '../src/engine/types.ts';
import { RUNBOOK_CATALOG } from './catalog.ts';

/**
 * How the deployed functions learn a team's runbooks without their code: the construct sets this
 * variable to their catalog entries (JSON), so routing and the Slack commands know their ids.
 */
export const TEAM_CATALOG_ENV = 'RESPONDER_TEAM_RUNBOOKS';

const TeamCatalog = z.lazy(() =>
  z.array(
    z
      .object({ id: z.string().min(1), title: z.string(), writes: z.boolean(), params: z.array(z.string()) })
      .strict(),
  ),
);

/**
 * The variable's JSON for a team's runbooks: their params by name only (the worker, which has
 * their code, validates the values; admission checks no param is unknown).
 */
export function teamCatalogJson(team: readonly RunbookInfo[]): string {
  return JSON.stringify(team.map((info) => ({ ...info, params: Object.keys(info.params.shape) })));
}

/** The built-in catalog, then the team's runbooks from the variable's JSON (when set). */
export function catalogWithTeam(json: string | undefined): readonly RunbookInfo[] {
  if (!json) return RUNBOOK_CATALOG;
  const parsed = TeamCatalog.safeParse(JSON.parse(json));
  if (!parsed.success)
    throw new Error(`${TEAM_CATALOG_ENV} is not a runbook catalog: ${parsed.error.message}`);
  return [
    ...RUNBOOK_CATALOG,
    ...parsed.data.map((info) => ({
      ...info,
      params: z.object(Object.fromEntries(info.params.map((key) => [key, z.unknown()]))),
    })),
  ];
}
