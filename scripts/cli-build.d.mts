import type { BuildOptions } from 'esbuild';
export declare const CLI_BUILD: BuildOptions;
