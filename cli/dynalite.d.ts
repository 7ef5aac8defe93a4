// dynalite ships no types; this is the part of its API the CLI's local state and the tests use.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** How long a new table stays CREATING (500 ms by default). */
    createTableMs?: number;
    /** A LevelDB directory that keeps the tables between runs (in memory without one). */
    path?: string;
  }

  export default function dynalite(options?: DynaliteOptions): Server;
}
