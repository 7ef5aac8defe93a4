/**
 * What a team writes a runbook with: `defineRunbook`, `defineStep`, findings and outcomes, and
 * the types of the step context (`ctx.kube` reads only; every write goes through `ctx.actuator`).
 *
 * @packageDocumentation
 */

/** The zod the SDK is typed with, for params schemas: one copy, so the types always line up. */
export { z } from 'zod';
export {
  allowsBetween,
  type Ec2Reader,
  type IngressRule,
  type InstanceNetwork,
  instanceIdFromProviderId,
  type SecurityGroupRules,
  type Traffic,
  type TrafficSource,
} from '../src/aws/ec2.ts';
export {
  AGENT_CONTAINER,
  AGENT_SELECTOR,
  type AgentCandidate,
  agentCandidate,
} from '../src/cluster/agent-pods.ts';
export {
  type LabelMatcher,
  type LabelSelector,
  type LabelSelectorRequirement,
  matchLabelSelectorObject,
  parseLabelSelector,
} from '../src/cluster/label-selector.ts';
export type { PermissionRule } from '../src/cluster/permissions.ts';
export { isPodReady } from '../src/cluster/pod-ready.ts';
export {
  type AgentPod,
  type AgentResult,
  type AwsReads,
  type CiliumFacade,
  type ExecOptions,
  type ExecResult,
  type FanOutOptions,
  type KubeError,
  type KubeErrorKind,
  type KubeObject,
  type KubeReader,
  type ListOptions,
  type Metadata,
  RESOURCES,
  type ResourceRef,
} from '../src/cluster/types.ts';
export {
  AGENT_NOT_READY_TAINT,
  type AgentHealth,
  type Exclusion,
  exclusions,
  type Hold,
  holdFor,
} from '../src/engine/exclusions.ts';
export { outcome, statusFor } from '../src/engine/outcome.ts';
export { checkDeletion, checksSummary, type DeletionCheck } from '../src/engine/pod-deletion.ts';
export { ageSeconds, type PodFacts, type PodOwner, podFacts, podKey } from '../src/engine/pod-facts.ts';
export { agentsLabel } from '../src/engine/progress.ts';
export type {
  ActionOutcome,
  Actuator,
  AnyRunbook,
  Cleared,
  DoneAction,
  Evidence,
  Finding,
  Limits,
  Logger,
  Mode,
  Outcome,
  ParamSetting,
  PlannedAction,
  PodTarget,
  Report,
  Runbook,
  Severity,
  Step,
  StepContext,
  StepReport,
  StepStatus,
  Verdict,
} from '../src/engine/types.ts';
export { defineRunbook, defineStep, type RunbookDefinition, type StepDefinition } from './define.ts';
export { errorCause, isKubeError, zodProblem } from './errors.ts';
export { evidence, type FindingInput, finding } from './findings.ts';
export type { ReadPermission } from './rules.ts';
