/**
 * The Kubernetes remote-command channel protocols over WebSocket, and which component answers.
 * kube-apiserver (1.30+) translates a request that offers v5.channel.k8s.io itself (the stream
 * translator speaks only v5); any other WebSocket exec is proxied to the kubelet/CRI streaming
 * server, which speaks v4 and the pre-v4 `channel.k8s.io` (also when no subprotocol is offered),
 * each in binary and base64 form, and refuses the handshake (403) when none of them is offered.
 */
export interface ChannelProtocol {
  /** The Sec-WebSocket-Protocol answered; '' when the client offered none. */
  name: string;
  /** v5 adds the client's close-a-channel frames (255); v4+ report a JSON Status on channel 3. */
  version: 1 | 4 | 5;
  encoding: 'binary' | 'base64';
  /** Who formats the final Status: the apiserver's stream translator, or the kubelet. */
  answeredBy: 'translator' | 'kubelet';
}

export const V5 = 'v5.channel.k8s.io';

const KUBELET_PROTOCOLS: Record<string, Omit<ChannelProtocol, 'name' | 'answeredBy'>> = {
  'v4.channel.k8s.io': { version: 4, encoding: 'binary' },
  'v4.base64.channel.k8s.io': { version: 4, encoding: 'base64' },
  'channel.k8s.io': { version: 1, encoding: 'binary' },
  'base64.channel.k8s.io': { version: 1, encoding: 'base64' },
};

/** The protocol for a handshake's Sec-WebSocket-Protocol header, or undefined to refuse it. */
export function negotiate(header: string | undefined): ChannelProtocol | undefined {
  const offered = (header ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (offered.includes(V5)) return { name: V5, version: 5, encoding: 'binary', answeredBy: 'translator' };
  if (offered.length === 0) return { name: '', version: 1, encoding: 'binary', answeredBy: 'kubelet' };
  for (const name of offered) {
    const known = KUBELET_PROTOCOLS[name];
    if (known) return { name, ...known, answeredBy: 'kubelet' };
  }
  return undefined;
}

export const Channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

/** One outgoing frame: the channel byte then the payload, or for base64 the channel digit then base64 text. */
export function encodeFrame(protocol: ChannelProtocol, channel: number, payload: Buffer): Buffer | string {
  if (protocol.encoding === 'base64') return String.fromCharCode(48 + channel) + payload.toString('base64');
  return Buffer.concat([Buffer.from([channel]), payload]);
}

/** One incoming frame, or undefined when it is empty. */
export function decodeFrame(
  protocol: ChannelProtocol,
  data: Buffer,
  isBinary: boolean,
): { channel: number; payload: Buffer } | undefined {
  if (data.length === 0) return undefined;
  if (protocol.encoding === 'base64' && !isBinary) {
    const text = data.toString('latin1');
    return { channel: text.charCodeAt(0) - 48, payload: Buffer.from(text.slice(1), 'base64') };
  }
  return { channel: data[0] as number, payload: data.subarray(1) };
}
