import { request } from 'node:https';
import type { Socket } from 'node:net';
import { AGENT_CONTAINER, CILIUM_NAMESPACE } from '../../sim/cluster.ts';
import type { Sim } from '../../sim/index.ts';

/**
 * A raw v5 exec of `true`: whether its exit status frame reached the client in the same read as
 * the 101, before this process's next setImmediate.
 */
export function statusWithinTheUpgradeTurn(
  sim: Sim,
  pod: string,
  through: { url: string; caPem: string } = sim,
): Promise<boolean> {
  const url = new URL(
    `/api/v1/namespaces/${CILIUM_NAMESPACE}/pods/${pod}/exec?container=${AGENT_CONTAINER}&stdout=true&command=true`,
    through.url,
  );
  return new Promise((resolve, reject) => {
    const upgrade = request(url, {
      ca: through.caPem,
      headers: {
        Authorization: `Bearer ${sim.admin.token}`,
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
        'Sec-WebSocket-Protocol': 'v5.channel.k8s.io',
      },
    });
    upgrade.on('error', reject);
    upgrade.on('response', (response) => reject(new Error(`no upgrade: ${response.statusCode}`)));
    upgrade.on('upgrade', (_response, socket: Socket, head: Buffer) => {
      let turnEnded = false;
      setImmediate(() => {
        turnEnded = true;
      });
      let received = head;
      const look = () => {
        // Server frames are unmasked and short here: [opcode byte, length byte, channel, payload...].
        for (let at = 0; at + 2 < received.length; at += 2 + ((received[at + 1] as number) & 0x7f)) {
          if (received[at + 2] === 3) {
            socket.destroy();
            resolve(!turnEnded);
            return;
          }
        }
      };
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        look();
      });
      look();
    });
    upgrade.end();
  });
}
