import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. Never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `no chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does), or set CHROMIUM_PATH`,
    );
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/**
 * Signs in on the stand-in provider's own login page (oidc-provider's development pages: any
 * password), then consents: the browser ends wherever the console sends it afterwards.
 */
export async function signInAtProvider(page: Page, issuer: string, userId: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await page.fill('input[name=login]', userId);
  await page.fill('input[name=password]', 'any password');
  await page.click('button[type=submit]');
  // The consent page (its button waited for: the login page was an /interaction/ page too).
  await page.click('button:has-text("Continue")');
  await page.waitForURL((url) => !url.href.startsWith(issuer));
}
