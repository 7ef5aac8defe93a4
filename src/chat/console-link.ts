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

/**
 * The console's URL as the http function knows it: the configured one, else the origin it was
 * first reached at. The stack cannot give the http function its own Function URL (the URL is made
 * after the function), yet its Slack messages (an approval settled there, by button or console)
 * must end with the run's page as the worker's do.
 */
export function consoleUrlSource(configured: string | undefined) {
  let servedAt: string | undefined;
  return {
    url: (): string | undefined => configured ?? servedAt,
    /** Told each request's origin (Lambda gives the Function URL's domain, not a client's header). */
    servedAt: (origin: string): void => {
      servedAt ??= origin;
    },
  };
}
