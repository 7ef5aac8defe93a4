import type { ChannelProtocol } from './protocol.ts';

/** A metav1.Status as Go marshals it on the error channel: no kind/apiVersion, `metadata: {}`. */
export interface ChannelStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: { reason?: string; message: string }[] };
  code?: number;
}

/**
 * How the process ended: an exit code, or a runtime failure that kept it from running, given as
 * the CRI's error text (what the kubelet prefixes with "error executing command in container: ").
 */
export type ExecOutcome = { exitCode: number } | { runtimeError: string };

/**
 * The Status that ends a session. The kubelet (v4) reports containerd's exit error
 * (`error executing command [argv], exit code N`); the apiserver's v5 translator re-wraps what its
 * SPDY client decoded (`command terminated with exit code N`, and for a start failure a second
 * "Internal error occurred" around the kubelet's InternalError message).
 */
export function finalStatus(protocol: ChannelProtocol, argv: string[], outcome: ExecOutcome): ChannelStatus {
  if ('runtimeError' in outcome) {
    const kubeletStatus = internalError(`error executing command in container: ${outcome.runtimeError}`);
    return protocol.answeredBy === 'translator'
      ? internalError(kubeletStatus.message as string)
      : kubeletStatus;
  }
  const { exitCode } = outcome;
  if (exitCode === 0) return { metadata: {}, status: 'Success' };
  const exitError =
    protocol.answeredBy === 'translator'
      ? `command terminated with exit code ${exitCode}`
      : `error executing command [${argv.join(' ')}], exit code ${exitCode}`;
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: ${exitError}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

/** apierrors.NewInternalError. */
function internalError(message: string): ChannelStatus {
  return {
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${message}`,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  };
}

/**
 * The bytes written to the error channel: JSON for v4/v5; before v4 the kubelet wrote nothing on
 * success and only the message text on failure.
 */
export function statusPayload(protocol: ChannelProtocol, status: ChannelStatus): Buffer | undefined {
  if (protocol.version >= 4) return Buffer.from(JSON.stringify(status));
  return status.status === 'Success' ? undefined : Buffer.from(status.message ?? '');
}
