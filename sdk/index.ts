/**
 * What a team writes a runbook with: `defineRunbook`, `defineStep`, findings and outcomes, and
 * the types of the step context (`ctx.kube` reads only; every write goes through `ctx.actuator`).
 *
 * @packageDocumentation
 */

/** The zod the SDK is typed with, for params schemas: one copy, so the types always line up. */
export { z } from 'zod';
export type { Ec2Reader } from '../src/aws/ec2.ts';
export {
  type AgentPod,
  type AgentResult,
  type CiliumFacade,
  type ExecOptions,
  type ExecResult,
  type FanOutOptions,
  KubeError,
  type KubeErrorKind,
  type KubeObject,
  type KubeReader,
  type ListOptions,
  type Metadata,
  RESOURCES,
  type ResourceRef,
} from '../src/cluster/types.ts';
export { outcome, statusFor } from '../src/engine/outcome.ts';
export type {
  ActionOutcome,
  Actuator,
  Cleared,
  DoneAction,
  Evidence,
  Finding,
  Limits,
  Logger,
  Mode,
  Outcome,
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
export { isKubeError } from './errors.ts';
export { evidence, type FindingInput, finding } from './findings.ts';
export type { ReadPermission } from './rules.ts';
