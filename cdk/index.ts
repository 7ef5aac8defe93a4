/**
 * Cilium Responder as a CDK construct, and what a team's CDK app builds it from:
 * `loadConfigWithRunbooks` reads the responder config and loads the runbooks it names.
 *
 * @packageDocumentation
 */

export { loadConfigWithRunbooks, type RunbookSet, type TeamRunbook } from '../runbooks/team.ts';
export type { ResponderConfig } from '../src/config/schema.ts';
export { CiliumResponder, type CiliumResponderProps } from './cilium-responder.ts';
export { rbacManifest } from './rbac.ts';
