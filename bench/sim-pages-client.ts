/**
 * The HTTPS client of bench/sim-pages-probe.ts, in its own process so the probe's CPU per page is
 * the simulator's alone. Asked for a path over IPC, it reads the page and answers with its
 * continue token (from the list's head: the items are not parsed) and its size.
 */
import { Agent, request } from 'node:https';

interface Setup {
  url: string;
  ca: string;
  token: string;
}
interface Ask {
  path: string;
  accept: string;
}

let setup: Setup | undefined;
let agent: Agent | undefined;

/** Asks again once when the server closed the kept-alive socket as the request went out (its 5 s idle timeout). */
function get(ask: Ask, setup: Setup, via: Agent, retried = false): void {
  const { path, accept } = ask;
  const { url, token } = setup;
  request(`${url}${path}`, { agent: via, headers: { authorization: `Bearer ${token}`, accept } }, (res) => {
    let head = '';
    let bytes = 0;
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (head.length < 4096) head += chunk.toString('latin1', 0, 4096);
    });
    res.on('end', () => {
      const next = /^\{[^[]*?"continue":"([^"]+)"/.exec(head)?.[1];
      process.send?.({ status: res.statusCode, bytes, ...(next ? { continue: next } : {}) });
    });
  })
    .on('error', (error: NodeJS.ErrnoException) => {
      if (!retried && error.code === 'ECONNRESET') get(ask, setup, via, true);
      else throw error;
    })
    .end();
}

process.on('message', (message: Setup | Ask | 'exit') => {
  if (message === 'exit') {
    agent?.destroy();
    process.disconnect();
  } else if ('url' in message) {
    setup = message;
    agent = new Agent({ keepAlive: true, ca: message.ca });
    process.send?.('ready');
  } else if (setup && agent) get(message, setup, agent);
});
