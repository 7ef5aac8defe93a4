/**
 * The web console's page of a run (`<base>/ui/runs/<runId>`), where a report in chat or on a
 * terminal ends when a console is configured: the stack's URL, or the one `responder serve` prints.
 */
export function consoleRunLink(baseUrl: string | undefined, runId: string): string | undefined {
  if (!baseUrl) return undefined;
  return `${baseUrl.replace(/\/+$/, '')}/ui/runs/${encodeURIComponent(runId)}`;
}

/** Where a CLI run or the Lambda functions find the console's URL. */
export const CONSOLE_URL_ENV = 'RESPONDER_CONSOLE_URL';
