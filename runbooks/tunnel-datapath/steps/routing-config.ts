import { defineStep, type Outcome, outcome, type StepContext } from '../../../sdk/index.ts';
import type { TunnelDatapathParams } from '../params.ts';
import { describeTunnel, parseRouting, ROUTING_KEYS, type Routing } from '../routing.ts';

/** The routing every step works from; the facade reads cilium-config once per run. */
export async function readRouting(ctx: StepContext<TunnelDatapathParams>): Promise<Routing> {
  return parseRouting(await ctx.cilium.config());
}

/** What the later steps return under native routing: there is no tunnel to check. */
export function notApplicable(routing: Extract<Routing, { mode: 'native' }>): Outcome {
  return outcome('skip', `not applicable: native routing (${routing.reason})`);
}

export const routingConfigStep = defineStep<TunnelDatapathParams>({
  id: 'routing-config',
  title: 'Routing and tunnel settings',
  writes: false,
  async run(ctx) {
    const config = await ctx.cilium.config();
    const routing = parseRouting(config);
    const keys = ROUTING_KEYS.filter((key) => config[key] !== undefined).map(
      (key) => `${key}=${config[key]}`,
    );
    const evidence = [
      {
        source: `${ctx.cilium.namespace}/cilium-config`,
        text: keys.join(' ') || '(no routing keys: defaults apply)',
      },
    ];
    if (routing.mode === 'native') {
      return outcome('pass', `native routing (${routing.reason}): no tunnel between nodes`, { evidence });
    }
    return outcome('pass', `tunnel routing over ${describeTunnel(routing)}`, { evidence });
  },
});
