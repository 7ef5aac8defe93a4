import { R } from '../../cluster.ts';
import type { Pod } from '../../objects.ts';
import { checkDisruption } from '../../pdb.ts';
import { ApiError, errors, successStatus } from '../../status.ts';
import type { HandlerContext } from '../context.ts';
import { sendJson } from '../respond.ts';
import { isDryRun } from './write.ts';

interface EvictionBody {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string };
  deleteOptions?: { preconditions?: { uid?: string; resourceVersion?: string }; dryRun?: string[] };
}

/** Terminal pods bypass PodDisruptionBudgets, as in kube-apiserver's eviction REST. */
function isTerminal(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/**
 * POST pods/<name>/eviction: deletes the pod unless a PodDisruptionBudget forbids it, with the
 * uid precondition, dry-run and error answers of kube-apiserver's eviction subresource.
 */
export async function handleEviction(ctx: HandlerContext): Promise<void> {
  const { namespace, name, query } = ctx.request;
  const body = (await ctx.body()) as EvictionBody;
  if (body.kind !== undefined && body.kind !== 'Eviction') {
    throw errors.badRequest(
      `the kind in the data (${body.kind}) does not match the expected kind (Eviction)`,
    );
  }
  if (body.metadata?.name !== name)
    throw errors.badRequest('name in URL does not match name in Eviction object');
  const store = ctx.cluster.store;
  const pod = store.mustGet<Pod>(R.pods, namespace, name as string);
  const preconditions = {
    ...(body.deleteOptions?.preconditions?.uid ? { uid: body.deleteOptions.preconditions.uid } : {}),
    ...(body.deleteOptions?.preconditions?.resourceVersion
      ? { resourceVersion: body.deleteOptions.preconditions.resourceVersion }
      : {}),
  };
  store.checkDelete(R.pods, namespace, name as string, preconditions);
  if (!isTerminal(pod)) {
    const verdict = checkDisruption(ctx.cluster, pod);
    if (verdict.kind === 'multiple') {
      throw errors.internal(
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    }
    if (verdict.kind === 'blocked') {
      throw new ApiError(
        429,
        'TooManyRequests',
        "Cannot evict pod as it would violate the pod's disruption budget.",
        {
          causes: [
            {
              reason: 'DisruptionBudget',
              message: `The disruption budget ${verdict.pdbName} needs ${verdict.desiredHealthy} healthy pods and has ${verdict.currentHealthy} currently`,
            },
          ],
        },
      );
    }
  }
  const dryRun = isDryRun(query) || body.deleteOptions?.dryRun?.includes('All') === true;
  if (!dryRun) store.delete(R.pods, namespace, name as string, preconditions);
  sendJson(ctx.res, 201, successStatus(201));
}
