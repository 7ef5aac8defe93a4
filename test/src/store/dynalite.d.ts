// dynalite ships no types; this is the part of its API the tests use.
declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** How long a new table stays CREATING (500 ms by default). */
    createTableMs?: number;
  }

  export default function dynalite(options?: DynaliteOptions): Server;
}
