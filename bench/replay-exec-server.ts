import type { IncomingMessage } from 'node:http';
import { createServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket, { WebSocketServer } from 'ws';
import type { Sim } from '../sim/index.ts';
import { kubeconfigYaml } from '../sim/kubeconfig.ts';
import { createCertificates } from '../sim/tls.ts';

/** A WebSocket message as the simulator sent it. */
interface Frame {
  data: Buffer;
  isBinary: boolean;
}

/** The simulator's answer to one command: its subprotocol and every message before its close. */
interface Answer {
  protocol: string;
  frames: Frame[];
}

export interface ReplayExecServer {
  /** Kubeconfig YAML naming this server, with the simulator's admin token. */
  kubeconfig: string;
  /** Exec upgrades answered since start. */
  execs(): number;
  close(): Promise<void>;
}

/**
 * A second exec server, beside the simulator, for telling the simulator's share of an exec fan-out
 * from the client's: every request but an exec goes to the simulator; an exec waits `latencyMs`,
 * then answers with the frames the simulator sent for the first exec of the same command (asked of
 * it once), with no command run and nothing else done. TLS, ws and the frames are the simulator's.
 */
export async function startReplayExecServer(sim: Sim, latencyMs: number): Promise<ReplayExecServer> {
  const tls = await createCertificates({ hosts: ['127.0.0.1'] });
  const answers = new Map<string, Promise<Answer>>();
  // The subprotocol the simulator chose for the same command.
  const chosen = new WeakMap<IncomingMessage, string>();
  const sockets = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    handleProtocols: (_offered, req) => chosen.get(req) || false,
  });
  let execs = 0;

  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const upstream = httpsRequest(
      `${sim.url}${req.url}`,
      { method: req.method, headers: req.headers, ca: sim.caPem },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    execs++;
    const url = new URL(req.url ?? '/', sim.url);
    const key = url.searchParams.getAll('command').join('\0');
    if (!answers.has(key)) answers.set(key, askSimulator(sim, url, req));
    void (async () => {
      const [answer] = await Promise.all([answers.get(key), sleep(latencyMs)]);
      if (!answer) return;
      chosen.set(req, answer.protocol);
      // The 101 and every frame in one write, as the simulator writes them (sim/exec/websocket.ts).
      socket.cork();
      sockets.handleUpgrade(req, socket, head, (ws) => {
        for (const frame of answer.frames) ws.send(frame.data, { binary: frame.isBinary });
        ws.close(1000);
      });
      socket.uncork();
    })().catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kubeconfig: kubeconfigYaml({
      server: `https://127.0.0.1:${port}`,
      caPem: tls.caPem,
      token: sim.admin.token,
    }),
    execs: () => execs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The frames the simulator answers an exec with, read as its client would read them. */
function askSimulator(sim: Sim, url: URL, req: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim());
    const ws = new WebSocket(`${sim.url.replace(/^http/, 'ws')}${url.pathname}${url.search}`, offered, {
      ca: sim.caPem,
      headers: { Authorization: req.headers.authorization ?? '' },
      perMessageDeflate: false,
    });
    const frames: Frame[] = [];
    ws.on('message', (data: Buffer, isBinary) => frames.push({ data, isBinary }));
    ws.on('close', () => resolve({ protocol: ws.protocol, frames }));
    ws.on('error', reject);
  });
}
