import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { median } from './figures.ts';

/** Milliseconds after an exec began, per named moment. */
export type Timeline = Record<string, number>;

/** Each moment's median over many execs, in the order the moments happen. */
export function medianTimeline(timelines: readonly Timeline[]): Timeline {
  const order = new Map<string, number[]>();
  for (const timeline of timelines)
    for (const [moment, at] of Object.entries(timeline)) {
      const ats = order.get(moment);
      if (ats) ats.push(at);
      else order.set(moment, [at]);
    }
  const medians = [...order].map(([moment, ats]) => [moment, Number(median(ats).toFixed(1))] as const);
  return Object.fromEntries(medians.sort((a, b) => a[1] - b[1]));
}

export const timelineText = (timeline: Timeline) =>
  Object.entries(timeline)
    .map(([moment, at]) => `${moment} ${at}`)
    .join(', ');

/**
 * Calls `each` with the moments of a server's WebSocket frames as they arrive on `socket`
 * (unmasked frames: the first payload byte names the exec channel), starting with `head`.
 */
function watchFrames(socket: Socket, head: Buffer, each: (channel: number, length: number) => void): void {
  // Payloads are skipped where they arrive, not copied: watching costs little of the CPU it measures.
  let pending: Buffer = Buffer.alloc(0);
  let skip = 0;
  const read = (chunk: Buffer) => {
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    while (data.length > 0) {
      if (skip > 0) {
        const skipped = Math.min(skip, data.length);
        data = data.subarray(skipped);
        skip -= skipped;
        continue;
      }
      if (data.length < 2) break;
      const short = (data[1] as number) & 0x7f;
      const headerLength = short === 126 ? 4 : short === 127 ? 10 : 2;
      if (data.length < headerLength + 1) break;
      const length =
        short === 126 ? data.readUInt16BE(2) : short === 127 ? Number(data.readBigUInt64BE(2)) : short;
      const opcode = (data[0] as number) & 0x0f;
      if (opcode === 2 && length > 0) each(data[headerLength] as number, length - 1);
      data = data.subarray(headerLength);
      skip = length;
    }
    pending = data;
  };
  read(head);
  socket.on('data', read);
}

/** Execs whose timelines are kept: enough for medians, and a 100,000-agent fan-out's RSS stays the client's own. */
export const TIMELINE_SAMPLE = 2_048;

/**
 * Keeps a uniform sample of at most `size` of the timelines offered (reservoir sampling), so the
 * execs of a 100,000-agent fan-out cost the same as those of a 5,000-agent one. `offer` says
 * whether it kept this one.
 */
export function timelineSample(size = TIMELINE_SAMPLE) {
  const kept: Timeline[] = [];
  let offered = 0;
  return {
    kept,
    offer(timeline: Timeline): boolean {
      offered += 1;
      if (kept.length < size) kept.push(timeline);
      else {
        const slot = Math.floor(Math.random() * offered);
        if (slot >= size) return false;
        kept[slot] = timeline;
      }
      return true;
    },
  };
}

/**
 * The client's side of the execs in this process, a uniform sample of at most `size` of them
 * (reservoir sampling): when its connection was up (TCP, TLS; 0 for a connection opened ahead),
 * its upgrade written, the 101 received, the first stdout frame, the exit status, the close. Read
 * through node's http diagnostics channel: the client is untouched.
 */
export function recordClientExecs(size = TIMELINE_SAMPLE): Timeline[] {
  const sample = timelineSample(size);
  subscribe('http.client.request.start', (message) => {
    const request = (message as { request: ClientRequest }).request;
    if (!request.path.includes('/exec?')) return;
    const began = performance.now();
    const timeline: Timeline = {};
    const mark = (moment: string) => {
      timeline[moment] ??= Number((performance.now() - began).toFixed(2));
    };
    if (!sample.offer(timeline)) return;
    const connection = (socket: Socket) => {
      if (socket.connecting) socket.once('connect', () => mark('connect'));
      else mark('connect');
      if (socket instanceof TLSSocket) {
        if (socket.getFinished() !== undefined) mark('TLS');
        else socket.once('secureConnect', () => mark('TLS'));
      }
    };
    if (request.socket) connection(request.socket);
    else request.once('socket', connection);
    request.once('finish', () => mark('upgrade written'));
    request.once('upgrade', (_response: IncomingMessage, socket: Socket, head: Buffer) => {
      mark('101 received');
      watchFrames(socket, head, (channel, length) => {
        if (channel === 1 && length > 0) mark('first stdout');
        if (channel === 3) mark('exit status');
      });
      socket.once('close', () => mark('close'));
    });
  });
  return sample.kept;
}
