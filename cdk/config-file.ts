import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The config the stack is built from: the `config` context (`cdk synth -c config=prod.yaml`), else
 * $RESPONDER_CONFIG, else responder.config.yaml, else the shipped example (which says so).
 */
export function configFile(
  context: unknown,
  env: NodeJS.ProcessEnv = process.env,
): { path: string; example: boolean } {
  const named = typeof context === 'string' ? context : env.RESPONDER_CONFIG;
  if (named) return { path: resolve(named), example: false };
  if (existsSync('responder.config.yaml')) return { path: resolve('responder.config.yaml'), example: false };
  return { path: resolve('responder.config.example.yaml'), example: true };
}
