import type { V1Status } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { finalStatus } from '../../../sim/exec/exec-status.ts';
import { type ChannelProtocol, negotiate } from '../../../sim/exec/protocol.ts';
import { ExecStartError } from '../../../sim/exec/start-error.ts';
import { exitFromStatus } from '../../../src/cluster/exec-status.ts';

// The Status frames the API server (v5 stream translator) and the kubelet (v4) send.
const protocols: Record<string, ChannelProtocol> = {
  v5: negotiate('v5.channel.k8s.io') as ChannelProtocol,
  v4: negotiate('v4.channel.k8s.io') as ChannelProtocol,
};
const status = (protocol: ChannelProtocol, outcome: Parameters<typeof finalStatus>[2]) =>
  finalStatus(protocol, ['cilium-dbg', 'status'], outcome) as V1Status;

describe.each(Object.entries(protocols))('exitFromStatus over %s', (_name, protocol) => {
  it('reads Success as exit code 0 without a message', () => {
    expect(exitFromStatus(status(protocol, { exitCode: 0 }))).toEqual({ exitCode: 0 });
  });

  it('reads a non-zero exit from the ExitCode cause', () => {
    const result = exitFromStatus(status(protocol, { exitCode: 3 }));
    expect(result.exitCode).toBe(3);
    expect(result.message).toMatch(/exit code 3$/);
  });

  it('reads a missing executable as 127', () => {
    const byName = exitFromStatus(
      status(protocol, { runtimeError: new ExecStartError('cilium-dbg').message }),
    );
    expect(byName.exitCode).toBe(127);
    expect(byName.message).toContain('executable file not found in $PATH');
    const byPath = exitFromStatus(
      status(protocol, { runtimeError: new ExecStartError('/usr/bin/x').message }),
    );
    expect(byPath.exitCode).toBe(127);
  });

  it('reads any other failure to start as 126', () => {
    const result = exitFromStatus(
      status(protocol, { runtimeError: 'OCI runtime exec failed: permission denied' }),
    );
    expect(result.exitCode).toBe(126);
    expect(result.message).toContain('permission denied');
  });
});
