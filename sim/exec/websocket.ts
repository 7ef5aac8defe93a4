import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SimCluster } from '../cluster.ts';
import type { Fault } from '../faults.ts';
import { type ExecOutcome, finalStatus, statusPayload } from './exec-status.ts';
import { Channel, type ChannelProtocol, decodeFrame, encodeFrame, negotiate } from './protocol.ts';
import { runCommand } from './run.ts';
import { ExecStartError } from './start-error.ts';
import { StdinQueue } from './stdin-queue.ts';
import { ExecTimeline } from './timeline.ts';
import type { ExecRequest } from './types.ts';

const server = new WebSocketServer({
  noServer: true,
  perMessageDeflate: false,
  handleProtocols: (_offered, req) => negotiate(req.headers['sec-websocket-protocol'])?.name || false,
});

/**
 * Completes an exec upgrade the API server has authenticated and validated, then runs the command
 * over the negotiated channel protocol: an empty frame on the first writable channel once the
 * session is up, output on channels 1/2, stdin from channel 0 (ended by a v5 close frame), and a
 * final Status on channel 3 before a normal close. Faults: `execStall` answers the handshake and
 * then nothing; `execDropAfterBytes` cuts the TCP connection after that much output, with no Status.
 */
export function handleExecUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  exec: ExecRequest,
  options: { cluster: SimCluster; fault?: Fault; timeline?: ExecTimeline },
): void {
  const timeline = options.timeline ?? new ExecTimeline();
  const protocol = negotiate(req.headers['sec-websocket-protocol']);
  if (!protocol) {
    // golang.org/x/net/websocket answers a refused subprotocol handshake with a bare 403.
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    return;
  }
  // What the session writes before it first waits goes out in one write with the 101 (see
  // holdWrites); a stalled exec sends its 101 alone.
  const release = holdWrites(socket);
  server.handleUpgrade(req, socket, head, (ws) => {
    timeline.mark('101 written');
    ws.once('close', () => timeline.close());
    // A protocol error from the client ends the session; ws closes the connection itself.
    ws.on('error', () => ws.terminate());
    if (options.fault?.execStall) return release();
    void runSession(ws, protocol, exec, options.cluster, options.fault?.execDropAfterBytes, timeline).finally(
      release,
    );
  });
  // A command that waits (stdin, a timeout) streams from its first wait on.
  setImmediate(release);
}

/**
 * Holds `socket`'s writes until the returned release is called (once; later calls do nothing).
 * Node's TLS socket finishes a write at the next setImmediate, and any write made before then
 * waits for it: the 101 would leave at once and the frames after it only once every other exec
 * served in the same event-loop turn had run its command. Written together, they leave together,
 * as a kube-apiserver's do.
 */
function holdWrites(socket: Duplex): () => void {
  socket.cork();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    socket.uncork();
  };
}

async function runSession(
  ws: WebSocket,
  protocol: ChannelProtocol,
  exec: ExecRequest,
  cluster: SimCluster,
  dropAfterBytes: number | undefined,
  timeline: ExecTimeline,
): Promise<void> {
  const aborted = new AbortController();
  const stdin = exec.stdin ? new StdinQueue() : undefined;
  ws.on('close', () => {
    aborted.abort();
    stdin?.end();
  });
  ws.on('message', (data: Buffer, isBinary) => {
    const frame = decodeFrame(protocol, data, isBinary);
    if (!frame) return;
    if (frame.channel === Channel.stdin) stdin?.push(frame.payload);
    else if (protocol.version === 5 && frame.channel === Channel.close && frame.payload[0] === Channel.stdin)
      stdin?.end();
  });

  const output = new OutputBudget(dropAfterBytes);
  const send = (channel: number, chunk: string | Buffer) => {
    if (aborted.signal.aborted || output.dropped) return;
    const payload = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const allowed = output.take(payload);
    const stdout = channel === Channel.stdout && allowed.length > 0;
    if (stdout) timeline.mark('first stdout queued');
    let at = 0;
    do {
      const frame = allowed.subarray(at, at + FRAME_BYTES);
      at += FRAME_BYTES;
      const last = at >= allowed.length;
      ws.send(encodeFrame(protocol, channel, frame), () => {
        // Written to the socket, which can be an event-loop turn after the send.
        if (stdout) timeline.mark('first stdout written');
        if (last && output.dropped) ws.terminate();
      });
    } while (at < allowed.length);
  };
  // A terminal has one output stream and turns \n into \r\n; the kubelet drops stderr with a tty.
  const toTerminal = (chunk: string | Buffer) => Buffer.from(chunk.toString().replaceAll('\n', '\r\n'));
  const stdout = (chunk: string | Buffer) => {
    if (exec.stdout) send(Channel.stdout, exec.tty ? toTerminal(chunk) : chunk);
  };
  const stderr = (chunk: string | Buffer) => {
    if (exec.tty) stdout(chunk);
    else if (exec.stderr) send(Channel.stderr, chunk);
  };

  const firstWritable = exec.stdout ? Channel.stdout : exec.stderr ? Channel.stderr : Channel.error;
  ws.send(encodeFrame(protocol, firstWritable, Buffer.alloc(0)));
  if (output.dropped) {
    ws.terminate();
    return;
  }

  const context = { cluster, pod: exec.pod, container: exec.container };
  let outcome: ExecOutcome;
  try {
    outcome = {
      exitCode: await runCommand(context, exec.command, { stdout, stderr, signal: aborted.signal, stdin }),
    };
  } catch (error) {
    outcome = { runtimeError: runtimeError(error) };
  }
  if (aborted.signal.aborted || output.dropped) return;
  const payload = statusPayload(protocol, finalStatus(protocol, exec.command, outcome));
  timeline.mark('exit status queued');
  if (payload)
    ws.send(encodeFrame(protocol, Channel.error, payload), () => timeline.mark('exit status written'));
  ws.close(1000);
}

/** containerd's text for a process it could not run: runc's start failure, or anything else that went wrong. */
function runtimeError(error: unknown): string {
  if (error instanceof ExecStartError) {
    return `failed to exec in container: failed to start exec "${randomBytes(32).toString('hex')}": ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The most output one frame carries: the container runtime, the kubelet and kube-apiserver copy a
 * command's output through Go's io.Copy, 32 KiB at a time, and each write is a frame. A client
 * never gets a large output as one message.
 */
export const FRAME_BYTES = 32 * 1024;

/** Counts output bytes for the drop fault; once the budget is spent the connection is cut. */
class OutputBudget {
  private remaining: number;
  dropped: boolean;

  constructor(limit: number | undefined) {
    this.remaining = limit ?? Number.POSITIVE_INFINITY;
    this.dropped = this.remaining <= 0;
  }

  /** The part of `payload` still within budget; marks the session dropped when the budget runs out. */
  take(payload: Buffer): Buffer {
    if (payload.length < this.remaining) {
      this.remaining -= payload.length;
      return payload;
    }
    const allowed = payload.subarray(0, this.remaining);
    this.remaining = 0;
    this.dropped = true;
    return allowed;
  }
}
