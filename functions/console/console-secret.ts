const MIN_SECRET = 32;

/**
 * The console secret is checked when the server is built, not when the console first loads (on
 * its first request): a secret too short to derive session keys from stops the start.
 */
export function checkConsoleSecret(secret: string): void {
  if (secret.length < MIN_SECRET)
    throw new Error(`the console secret must be at least ${MIN_SECRET} characters`);
}
