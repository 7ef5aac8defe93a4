import type { ClusterBuilder } from './builder.ts';
import type { ResolvedOptions, ScenarioOptions } from './options.ts';

/** A scenario plants one incident's evidence on the base cluster, or composes other scenarios. */
export type Scenario =
  | {
      description: string;
      /** Options the incident needs (e.g. no `mount-cgroup`); the caller's own options win. */
      presets?: ScenarioOptions;
      apply(builder: ClusterBuilder, options: ResolvedOptions): void;
    }
  | {
      description: string;
      presets?: ScenarioOptions;
      /** Scenario names applied in order. */
      composes: readonly string[];
    };
