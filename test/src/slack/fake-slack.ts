import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Web API call as the fake received it. */
export interface SlackCall {
  method: string;
  params: Record<string, string>;
  authorization: string | undefined;
  /** performance.now() when the request arrived. */
  at: number;
}

export interface ScriptedReply {
  status: number;
  headers?: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * A stand-in for Slack's Web API on 127.0.0.1: form-encoded POSTs to `/api/<method>`, answered
 * `{ ok: true, channel, ts }` like Slack, unless a scripted reply for that method is queued.
 */
export async function startFakeSlack() {
  const calls: SlackCall[] = [];
  const scripted: Array<{ method: string; reply: ScriptedReply }> = [];
  let nextTs = 1;
  let nextFile = 0;

  function answer(method: string, params: Record<string, string>): ScriptedReply {
    const index = scripted.findIndex((entry) => entry.method === method);
    if (index >= 0) return scripted.splice(index, 1)[0]?.reply as ScriptedReply;
    if (method === 'chat.postMessage') {
      const ts = `1714564800.${String(nextTs++).padStart(6, '0')}`;
      return { status: 200, body: { ok: true, channel: 'C0CILIUM01', ts, message: { text: params.text } } };
    }
    if (method === 'files.getUploadURLExternal') {
      const id = `F${String(++nextFile).padStart(6, '0')}`;
      return { status: 200, body: { ok: true, file_id: id, upload_url: `${base()}/upload/${id}` } };
    }
    if (method === 'files.completeUploadExternal') {
      return { status: 200, body: { ok: true, files: JSON.parse(params.files ?? '[]') } };
    }
    if (method === 'chat.getPermalink') {
      const permalink = `https://example.slack.com/archives/${params.channel}/p${(params.message_ts ?? '').replace('.', '')}`;
      return { status: 200, body: { ok: true, channel: params.channel, permalink } };
    }
    if (method === 'chat.postEphemeral') {
      return {
        status: 200,
        body: { ok: true, message_ts: `1714564800.${String(nextTs++).padStart(6, '0')}` },
      };
    }
    if (method === 'chat.update') {
      return { status: 200, body: { ok: true, channel: params.channel, ts: params.ts, text: params.text } };
    }
    return { status: 200, body: { ok: false, error: 'unknown_method' } };
  }

  async function readBody(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  const uploads: { fileId: string; content: string }[] = [];
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const server = createServer(async (request, response) => {
    const at = performance.now();
    if (request.url?.startsWith('/upload/')) {
      // files.uploadV2's second leg: the file's bytes, to the URL Slack handed out.
      uploads.push({ fileId: request.url.slice('/upload/'.length), content: await readBody(request) });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('OK');
      return;
    }
    const method = (request.url ?? '').replace(/^\/api\//, '');
    const params = Object.fromEntries(new URLSearchParams(await readBody(request)));
    calls.push({ method, params, authorization: request.headers.authorization, at });
    const reply = answer(method, params);
    response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/`,
    calls,
    /** Files uploaded through files.uploadV2, with their content. */
    uploads,
    /** The next call to `method` gets this reply instead of the usual one. */
    script(method: string, reply: ScriptedReply) {
      scripted.push({ method, reply });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
