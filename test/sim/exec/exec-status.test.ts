import { describe, expect, it } from 'vitest';
import { finalStatus, statusPayload } from '../../../sim/exec/exec-status.ts';
import { type ChannelProtocol, negotiate } from '../../../sim/exec/protocol.ts';

function accepted(header: string | undefined): ChannelProtocol {
  const protocol = negotiate(header);
  if (!protocol) throw new Error(`refused ${header}`);
  return protocol;
}

const v5 = accepted('v5.channel.k8s.io, v4.channel.k8s.io');
const v4 = accepted('v4.channel.k8s.io');
const v1 = accepted(undefined);
const START_FAILURE =
  'failed to exec in container: failed to start exec "abc": OCI runtime exec failed: exec failed: unable to start container process: exec: "foo": executable file not found in $PATH: unknown';

describe('subprotocol negotiation', () => {
  it('sends any v5 offer to the apiserver translator, whatever its position', () => {
    expect(v5).toEqual({
      name: 'v5.channel.k8s.io',
      version: 5,
      encoding: 'binary',
      answeredBy: 'translator',
    });
    expect(negotiate('v4.channel.k8s.io,v5.channel.k8s.io')?.name).toBe('v5.channel.k8s.io');
  });

  it('lets the kubelet pick the first protocol it knows, or none', () => {
    expect(negotiate('v3.channel.k8s.io, v4.base64.channel.k8s.io, channel.k8s.io')).toEqual({
      name: 'v4.base64.channel.k8s.io',
      version: 4,
      encoding: 'base64',
      answeredBy: 'kubelet',
    });
    expect(v1).toEqual({ name: '', version: 1, encoding: 'binary', answeredBy: 'kubelet' });
    expect(negotiate('v3.channel.k8s.io, v2.channel.k8s.io')).toBeUndefined();
  });
});

describe('final status', () => {
  it('reports success as a bare Success status', () => {
    expect(JSON.stringify(finalStatus(v5, ['true'], { exitCode: 0 }))).toBe(
      '{"metadata":{},"status":"Success"}',
    );
    expect(finalStatus(v4, ['true'], { exitCode: 0 })).toEqual({ metadata: {}, status: 'Success' });
  });

  it('reports an exit code in the kubelet wording (v4) and the translator wording (v5)', () => {
    expect(JSON.stringify(finalStatus(v4, ['sh', '-c', 'exit 3'], { exitCode: 3 }))).toBe(
      '{"metadata":{},"status":"Failure","message":"command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"3"}]}}',
    );
    expect(finalStatus(v5, ['false'], { exitCode: 1 }).message).toBe(
      'command terminated with non-zero exit code: command terminated with exit code 1',
    );
  });

  it('reports a start failure as InternalError, wrapped once more by the translator', () => {
    const kubelet = finalStatus(v4, ['foo'], { runtimeError: START_FAILURE });
    expect(kubelet).toEqual({
      metadata: {},
      status: 'Failure',
      message: `Internal error occurred: error executing command in container: ${START_FAILURE}`,
      reason: 'InternalError',
      details: { causes: [{ message: `error executing command in container: ${START_FAILURE}` }] },
      code: 500,
    });
    const translated = finalStatus(v5, ['foo'], { runtimeError: START_FAILURE });
    expect(translated.message).toBe(`Internal error occurred: ${kubelet.message}`);
    expect(translated.details?.causes).toEqual([{ message: kubelet.message }]);
  });

  it('writes JSON for v4+, and before v4 nothing on success and the bare message on failure', () => {
    const failure = finalStatus(v1, ['false'], { exitCode: 1 });
    expect(statusPayload(v1, failure)?.toString()).toBe(failure.message);
    expect(statusPayload(v1, finalStatus(v1, ['true'], { exitCode: 0 }))).toBeUndefined();
    expect(JSON.parse(statusPayload(v4, failure)?.toString() ?? '')).toEqual(failure);
  });
});
