/** Talks to a running responder (local `serve` or the deployed function URL) as an operator. */
export interface ServerOptions {
  server: string;
  token?: string;
}

export async function callServer<T>(
  options: ServerOptions,
  path: string,
  init: RequestInit = {},
): Promise<T> {
  const token = options.token ?? process.env.RESPONDER_OPERATOR_TOKEN;
  if (!token)
    throw new Error("no token: pass --token or set RESPONDER_OPERATOR_TOKEN (the server's operator token)");
  let response: Response;
  try {
    response = await fetch(new URL(path, options.server), {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    throw new Error(
      `cannot reach ${options.server}: ${(error as Error).message} (is \`responder serve\` running?)`,
    );
  }
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok)
    throw new Error(`${options.server}${path}: ${response.status} ${body.error ?? ''}`.trim());
  return body as T;
}
