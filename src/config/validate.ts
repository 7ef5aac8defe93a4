import { fieldOf, issueLine, issuesOf } from '../validation/issues.ts';
import { ConfigError, type ParseOptions, unknownRunbooks } from './check.ts';
import { ConfigSchema, type ResponderConfig } from './schema.ts';

/**
 * A config document (YAML's or JSON's data) checked against the schema and `options`; each problem
 * is said after `where(path)` (the file and line, or the file alone), one per line.
 */
export function validateConfig(
  data: unknown,
  options: ParseOptions,
  where: (path: (string | number)[]) => string,
): ResponderConfig {
  const parsed = ConfigSchema.safeParse(data);
  if (parsed.success && !options.runbooks && !options.checks) return parsed.data;
  const style = { indices: 'dotted', root: '(top level)' } as const;
  const found = (config: ResponderConfig) => [
    ...(options.runbooks ? unknownRunbooks(config, options.runbooks) : []),
    ...(options.checks?.(config) ?? []),
  ];
  const issues = parsed.success
    ? found(parsed.data).map(({ path, message }) => ({
        path,
        field: fieldOf(path, style),
        problem: message,
      }))
    : issuesOf(parsed.error, style);
  if (parsed.success && issues.length === 0) return parsed.data;
  const problems = issues.map((issue) => `${where(issue.path as (string | number)[])}: ${issueLine(issue)}`);
  throw new ConfigError(problems.join('\n'));
}
