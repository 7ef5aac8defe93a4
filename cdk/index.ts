/**
 * Cilium Responder as a CDK construct, and what a team's CDK app builds it from:
 * `loadConfigWithRunbooks` reads the responder config and loads the runbooks it names.
 *
 * @packageDocumentation
 */

export { loadConfigWithRunbooks, type RunbookSet, type TeamRunbook } from '../runbooks/team.ts';
// The SDK's types, which a runbook set holds (Runbook, Step...).
export type * from '../sdk/index.ts';
export type { ConfigProblem, ParseOptions } from '../src/config/load.ts';
export type { ConfigSchema, ResponderConfig } from '../src/config/schema.ts';
export type { RunbookInfo } from '../src/engine/types.ts';
export type { RegionScope } from './access-entries.ts';
export type { AlarmTopic } from './alarm-topic.ts';
export { CiliumResponder, type CiliumResponderProps } from './cilium-responder.ts';
