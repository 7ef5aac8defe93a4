/** What the edge (HTTP handler or Lambda entry point) knows beyond the payload itself. */
export interface EdgeFacts {
  receivedAt: Date;
}
