import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable, Writable } from 'node:stream';
import { Exec, KubeConfig, type V1Status } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AGENT_CONTAINER, type SimCluster } from '../../../sim/cluster.ts';
import { handleExecUpgrade } from '../../../sim/exec/websocket.ts';
import type { Fault } from '../../../sim/faults.ts';
import { agentPod, appPod, fixtureCluster, NODES } from './fixtures.ts';

const AGENT = agentPod(NODES[0]);
const APP = appPod(NODES[0]);

let cluster: SimCluster;
let server: Server;
let port: number;
let fault: Fault | undefined;

/** A stand-in for the API server's upgrade path: find the pod, read the exec options, hand over. */
beforeAll(async () => {
  cluster = fixtureCluster();
  server = createServer();
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const podName = url.pathname.split('/')[6];
    const pod = [AGENT, APP].find((p) => p.metadata.name === podName) ?? AGENT;
    const flag = (name: string) =>
      url.searchParams.get(name) === 'true' || url.searchParams.get(name) === '1';
    handleExecUpgrade(
      req,
      socket,
      head,
      {
        pod,
        container: url.searchParams.get('container') ?? AGENT_CONTAINER,
        command: url.searchParams.getAll('command'),
        stdin: flag('stdin'),
        stdout: flag('stdout'),
        stderr: flag('stderr'),
        tty: flag('tty'),
      },
      { cluster, ...(fault ? { fault } : {}) },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(() => {
  fault = undefined;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function kubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'sim', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'admin', token: 'test-token' }],
    contexts: [{ name: 'sim', cluster: 'sim', user: 'admin' }],
    currentContext: 'sim',
  });
  return kc;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

interface ClientResult {
  stdout: string;
  stderr: string;
  status?: V1Status;
  closeCode: number;
}

/** Runs a command with client-node's Exec, as the responder does, until the connection closes. */
async function clientExec(
  command: string[],
  options: { pod?: string; container?: string; stdin?: Readable } = {},
): Promise<ClientResult> {
  const stdout = collector();
  const stderr = collector();
  let status: V1Status | undefined;
  const ws = await new Exec(kubeConfig()).exec(
    'kube-system',
    options.pod ?? (AGENT.metadata.name as string),
    options.container ?? AGENT_CONTAINER,
    command,
    stdout.stream,
    stderr.stream,
    options.stdin ?? null,
    false,
    (s) => {
      status = s;
    },
  );
  const closeCode = await new Promise<number>((resolve) =>
    ws.addEventListener('close', (event) => resolve(event.code)),
  );
  return { stdout: stdout.text(), stderr: stderr.text(), status, closeCode };
}

/** A raw ws client with explicit subprotocols, collecting every frame until close. */
function rawExec(
  query: string,
  protocols: string[] | undefined,
  onOpen?: (ws: WebSocket) => void,
): Promise<{ protocol: string; frames: (Buffer | string)[]; closeCode: number }> {
  const ws = new WebSocket(
    `ws://127.0.0.1:${port}/api/v1/namespaces/kube-system/pods/${AGENT.metadata.name}/exec?${query}`,
    protocols,
  );
  const frames: (Buffer | string)[] = [];
  ws.on('message', (data: Buffer, isBinary) => frames.push(isBinary ? data : data.toString()));
  ws.on('open', () => onOpen?.(ws));
  return new Promise((resolve, reject) => {
    ws.on('error', reject);
    ws.on('close', (closeCode) => resolve({ protocol: ws.protocol, frames, closeCode }));
  });
}

const QUERY = (command: string[], extra = 'stdout=true&stderr=true') =>
  `${extra}&container=${AGENT_CONTAINER}&${command.map((c) => `command=${encodeURIComponent(c)}`).join('&')}`;

describe('exec over WebSocket with @kubernetes/client-node', () => {
  it('streams stdout and reports Success', async () => {
    const result = await clientExec(['cilium-dbg', 'status', '-o', 'json']);
    expect(JSON.parse(result.stdout).cilium.state).toBe('Ok');
    expect(result.stderr).toBe('');
    expect(result.status).toEqual({ metadata: {}, status: 'Success' });
    expect(result.closeCode).toBe(1000);
  });

  it('streams stderr and reports a non-zero exit code with its ExitCode cause', async () => {
    const result = await clientExec(['cilium-dbg', 'bogus']);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Error: unknown command "bogus" for "cilium-dbg"\nRun \'cilium-dbg --help\' for usage.\n',
    );
    expect(result.status).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'command terminated with non-zero exit code: command terminated with exit code 1',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '1' }] },
    });
  });

  it('fails an unknown binary the way containerd/runc does', async () => {
    const result = await clientExec(['foo', '--bar']);
    expect(result.status?.status).toBe('Failure');
    expect(result.status?.reason).toBe('InternalError');
    expect(result.status?.code).toBe(500);
    expect(result.status?.message).toMatch(
      /^Internal error occurred: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "foo": executable file not found in \$PATH: unknown$/,
    );
  });

  it('runs in other containers with their own tools', async () => {
    const result = await clientExec(['hostname'], { pod: APP.metadata.name as string, container: 'web' });
    expect(result.stdout).toBe('web-0\n');
    expect(result.status?.status).toBe('Success');
  });

  it('passes stdin and ends it on the v5 close signal', async () => {
    const result = await clientExec(['cat'], {
      stdin: Readable.from([Buffer.from('hello '), Buffer.from('world')]),
    });
    expect(result.stdout).toBe('hello world');
    expect(result.status?.status).toBe('Success');
  });

  it('sends nothing after the handshake when exec stalls, until the client gives up', async () => {
    fault = { execStall: true };
    const stdout = collector();
    let status: V1Status | undefined;
    const ws = await new Exec(kubeConfig()).exec(
      'kube-system',
      AGENT.metadata.name as string,
      AGENT_CONTAINER,
      ['cilium-dbg', 'version'],
      stdout.stream,
      null,
      null,
      false,
      (s) => {
        status = s;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ws.readyState).toBe(WebSocket.OPEN);
    expect(stdout.text()).toBe('');
    expect(status).toBeUndefined();
    ws.close();
  });

  it('cuts the connection after the allowed output, without a status', async () => {
    fault = { execDropAfterBytes: 10 };
    const result = await clientExec(['cilium-dbg', 'status', '-o', 'json']);
    expect(result.stdout).toBe('{\n  "ciliu');
    expect(result.status).toBeUndefined();
    expect(result.closeCode).toBe(1006);
  });
});

describe('channel protocol negotiation', () => {
  it('picks v5 whenever the client offers it, and signals the session with an empty stdout frame', async () => {
    const session = await rawExec(QUERY(['true']), ['v4.channel.k8s.io', 'v5.channel.k8s.io']);
    expect(session.protocol).toBe('v5.channel.k8s.io');
    expect(session.frames[0]).toEqual(Buffer.from([1]));
    expect(session.frames.at(-1)).toEqual(
      Buffer.concat([Buffer.from([3]), Buffer.from('{"metadata":{},"status":"Success"}')]),
    );
  });

  it('speaks v4 to a v4-only client, with the kubelet status wording', async () => {
    const session = await rawExec(QUERY(['false']), ['v4.channel.k8s.io']);
    expect(session.protocol).toBe('v4.channel.k8s.io');
    const status = session.frames.at(-1) as Buffer;
    expect(status[0]).toBe(3);
    expect(JSON.parse(status.subarray(1).toString()).message).toBe(
      'command terminated with non-zero exit code: error executing command [false], exit code 1',
    );
  });

  it('speaks base64 text frames to a base64 client', async () => {
    const session = await rawExec(QUERY(['echo', 'hi']), ['v4.base64.channel.k8s.io']);
    expect(session.frames).toEqual([
      '1',
      `1${Buffer.from('hi\n').toString('base64')}`,
      `3${Buffer.from('{"metadata":{},"status":"Success"}').toString('base64')}`,
    ]);
  });

  it('accepts a client that offers no subprotocol, with pre-v4 plain-text errors', async () => {
    const ok = await rawExec(QUERY(['true']), undefined);
    expect(ok.protocol).toBe('');
    expect(ok.frames).toEqual([Buffer.from([1])]);
    const failed = await rawExec(QUERY(['false']), undefined);
    expect(failed.frames.at(-1)?.toString()).toBe(
      '\u0003command terminated with non-zero exit code: error executing command [false], exit code 1',
    );
  });

  it('ends stdin on a v5 close frame from a raw client', async () => {
    const session = await rawExec(
      QUERY(['cat'], 'stdin=true&stdout=true&stderr=true'),
      ['v5.channel.k8s.io'],
      (ws) => {
        ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('abc')]));
        ws.send(Buffer.from([255, 0]));
      },
    );
    expect(session.frames.map((f) => f.toString('latin1'))).toEqual([
      '\u0001',
      '\u0001abc',
      '\u0003{"metadata":{},"status":"Success"}',
    ]);
  });

  it('sends a large output in frames of at most 32 KiB, as the kubelet copies it, in order', async () => {
    const input = Buffer.alloc(100_000, 'abcdefghij');
    const session = await rawExec(
      QUERY(['cat'], 'stdin=true&stdout=true&stderr=true'),
      ['v5.channel.k8s.io'],
      (ws) => {
        ws.send(Buffer.concat([Buffer.from([0]), input]));
        ws.send(Buffer.from([255, 0]));
      },
    );
    const stdout = (session.frames as Buffer[]).filter((frame) => frame[0] === 1).slice(1);
    expect(stdout.map((frame) => frame.length - 1)).toEqual([32_768, 32_768, 32_768, 1_696]);
    expect(Buffer.concat(stdout.map((frame) => frame.subarray(1))).equals(input)).toBe(true);
  });

  it('merges stderr into stdout with CRLF line ends under a tty', async () => {
    const session = await rawExec(QUERY(['cilium-dbg', 'bogus'], 'stdout=true&stderr=true&tty=true'), [
      'v5.channel.k8s.io',
    ]);
    const channels = session.frames.map((f) => (f as Buffer)[0]);
    expect(channels).not.toContain(2);
    const stdout = Buffer.concat(
      session.frames.filter((f) => (f as Buffer)[0] === 1).map((f) => (f as Buffer).subarray(1)),
    );
    expect(stdout.toString()).toBe(
      'Error: unknown command "bogus" for "cilium-dbg"\r\nRun \'cilium-dbg --help\' for usage.\r\n',
    );
  });

  it('refuses a handshake offering only protocols it does not speak', async () => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/api/v1/namespaces/kube-system/pods/x/exec?${QUERY(['true'])}`,
      ['v3.channel.k8s.io'],
    );
    const statusCode = await new Promise<number>((resolve) =>
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(statusCode).toBe(403);
  });
});
