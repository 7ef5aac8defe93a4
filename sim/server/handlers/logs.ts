import { R } from '../../cluster.ts';
import type { Pod } from '../../objects.ts';
import { errors } from '../../status.ts';
import type { HandlerContext } from '../context.ts';

/** GET pods/<name>/log: the simulated agent's log lines; other containers log nothing. */
export async function handleLogs(ctx: HandlerContext): Promise<void> {
  const { namespace, name, query } = ctx.request;
  const pod = ctx.cluster.store.mustGet<Pod>(R.pods, namespace, name as string);
  const container = query.get('container') ?? pod.spec.containers[0]?.name;
  if (!pod.spec.containers.some((c) => c.name === container)) {
    throw errors.badRequest(`container ${container} is not valid for pod ${name}`);
  }
  let lines = ctx.cluster.agentForPod(pod)?.logs ?? [];
  const tail = Number(query.get('tailLines') ?? Number.NaN);
  if (Number.isInteger(tail) && tail >= 0) lines = lines.slice(Math.max(0, lines.length - tail));
  const text = lines.map((line) => `${line}\n`).join('');
  ctx.res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(text) });
  ctx.res.end(text);
}
