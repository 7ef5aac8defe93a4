import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLBACK_PATH, slackSignIn } from '../../functions/console/slack-sign-in.ts';
import { createHttpApp } from '../../functions/http-app.ts';
import { RUNBOOKS } from '../../runbooks/index.ts';
import { createWorker, type Worker } from '../../src/app/worker.ts';
import type { Job } from '../../src/queue/job.ts';
import type { DispatchContext } from '../../src/routing/dispatch.ts';
import { memoryStore } from '../../src/store/index.ts';
import type { RunRecord } from '../../src/store/types.ts';
import {
  ALERTMANAGER_TOKEN,
  APPROVER,
  appOf,
  BYSTANDER,
  commandBody,
  fixtureJson,
  RUNBOOK_IDS,
  recordingQueue,
  signedHeaders,
  TEST_SECRETS,
  testConfig,
} from '../functions/harness.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { launchChromium, signInAtProvider } from '../helpers/browser.ts';
import { type SimUnderTest, startScenario } from '../helpers/sim-access.ts';
import { CLIENT_ID, CLIENT_SECRET, type SlackOidc, startSlackOidc, TEAM_ID } from '../helpers/slack-oidc.ts';

/** Where CI keeps the pages as the browser drew them. */
const SCREENSHOTS = 'test-output/console';
/** What an alert may carry to a page: it must show as text and never run. */
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';

/**
 * The console in Debian's chromium: signed in with Slack (a real OpenID provider on the loopback
 * standing in for it), over runs the responder really made against the simulator: the pages a
 * person opens, checked with axe-core, and an approval decided by clicking.
 */
// A browser under the full suite's load on two cores: minutes, not vitest's 30 s default.
describe('the web console in a real browser', { timeout: 180_000 }, () => {
  let scenario: SimUnderTest;
  let provider: SlackOidc;
  let browser: Browser;
  let base: string;
  let closeServer: () => void;
  let worker: Worker;
  const queue = recordingQueue();
  const store = memoryStore();
  let handled = 0;

  /** Runs every job queued since the last call, as the worker would. */
  async function drain(): Promise<number> {
    const fresh = queue.sent.slice(handled);
    handled = queue.sent.length;
    for (const job of fresh as Job[]) await worker.run(job);
    return fresh.length;
  }

  let http: ReturnType<typeof createHttpApp>;
  /** The runs as the responder recorded them, newest first. */
  const runs = async (): Promise<RunRecord[]> => store.runs.list({ limit: 50 });

  beforeAll(async () => {
    scenario = await startScenario(['unmanaged-pods']);
    let ids = 0;
    const dispatch: DispatchContext = {
      config: testConfig(),
      store,
      queue,
      runbooks: RUNBOOK_IDS,
      runbookInfo: [],
      // The simulated pods and the provider's tokens are as old as the real clock says.
      now: () => new Date(),
      newId: () => `run-${++ids}`,
    };
    const responder = appOf(dispatch);
    worker = createWorker(responder.ports, { runbooks: RUNBOOKS, connect: async () => scenario.access });

    const server = serve({ fetch: (request) => http.fetch(request), port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    closeServer = () => server.close();
    provider = await startSlackOidc(`${base}${CALLBACK_PATH}`, {
      [APPROVER]: 'Ada Approver',
      [BYSTANDER]: 'Bo Bystander',
    });
    http = createHttpApp({
      app: responder,
      secrets: TEST_SECRETS,
      console: {
        // Plain http on the loopback, as `responder serve`: the cookie cannot be Secure here.
        session: { secret: 'browser-test-console-secret-0123456789abcdef', secure: false },
        signIn: [
          slackSignIn({
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            issuer: provider.issuer,
            teamId: TEAM_ID,
          }),
        ],
      },
    });

    // A probe alert (a dry run of host-identity) whose annotation carries markup.
    const alert = fixtureJson<{ alerts: { annotations: Record<string, string> }[] }>(
      'triggers/alertmanager-v4.json',
    );
    for (const each of alert.alerts) each.annotations.description = HOSTILE;
    const alerted = await http.request('/alerts/alertmanager', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ALERTMANAGER_TOKEN}` },
      body: JSON.stringify(alert),
    });
    expect(alerted.status).toBe(202);
    expect(await drain()).toBe(1);
    // An approver asks for a plan from Slack: it waits for approval.
    const body = commandBody({
      text: 'run unmanaged-pods mode=approve',
      user_id: APPROVER,
      trigger_id: 't-1',
    });
    const asked = await http.request('/slack/commands', {
      method: 'POST',
      headers: signedHeaders(body, new Date()),
      body,
    });
    expect(asked.status).toBe(200);
    expect(await drain()).toBe(1);
    expect((await runs()).map((run) => [run.runbook, run.verdict])).toEqual([
      ['unmanaged-pods', 'needs-approval'],
      ['host-identity', expect.any(String)],
    ]);

    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    closeServer?.();
    scenario?.sim.close();
  });

  /**
   * A browser of its own for `userId`, signed in with Slack through the provider's login page, and
   * what its console pages said went wrong (CSP refusals, script errors, dialogs).
   */
  async function signedIn(
    userId: string,
    path = '/ui/runs',
  ): Promise<{ context: BrowserContext; page: Page; pageErrors: string[] }> {
    const pageErrors: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // The console's own pages only (the provider's login page is not ours); Chrome's own favicon request aside.
    const ours = () => page.url().startsWith(base);
    page.on('console', (message) => {
      if (message.type() !== 'error' || !ours() || message.location().url.endsWith('/favicon.ico')) return;
      pageErrors.push(`${page.url()}: ${message.text()} ${message.location().url}`);
    });
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('dialog', (dialog) => pageErrors.push(`a dialog opened: ${dialog.message()}`));
    await page.goto(`${base}${path}`);
    await signInAtProvider(page, provider.issuer, userId);
    return { context, page, pageErrors };
  }

  /** The page passes axe's serious and critical checks, and is kept as screenshots: what a person sees first, and whole. */
  async function checkPage(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
    await page.screenshot({ path: `${SCREENSHOTS}/${name}-full.png`, fullPage: true });
    expect(await seriousViolations(page), name).toEqual([]);
    expect(await page.title()).not.toBe('pwned');
  }

  it('signs in with Slack and lists the runs newest first, each linking to its run', async () => {
    const { context, page, pageErrors } = await signedIn(APPROVER);
    expect(page.url()).toBe(`${base}/ui/runs`);
    const links = await page
      .locator('a[href^="/ui/runs/run-"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    const recorded = (await runs()).map((run) => `/ui/runs/${run.runId}`);
    expect([...new Set(links)]).toEqual(recorded);
    await checkPage(page, 'runs');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  /** The run `runbook` made (the newest). */
  const runOf = async (runbook: string): Promise<RunRecord> => {
    const found = (await runs()).find((run) => run.runbook === runbook);
    if (!found) throw new Error(`no ${runbook} run`);
    return found;
  };

  it("opens a run from the list: its diagnosis, steps and trigger, the alert's markup shown as text", async () => {
    const alerted = await runOf('host-identity');
    const { context, page, pageErrors } = await signedIn(APPROVER);
    await page.click(`a[href="/ui/runs/${alerted.runId}"]`);
    expect(page.url()).toBe(`${base}/ui/runs/${alerted.runId}`);
    await expect.poll(() => page.textContent('main')).toContain(alerted.summary?.diagnosis as string);
    expect(await page.textContent('main')).toContain('ProbeFailure');
    // The annotation is on the page as the characters it was sent as: no element, no script ran.
    expect(await page.getByText(HOSTILE, { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.locator('main img, main script').count()).toBe(0);
    await checkPage(page, 'run');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("opens a cluster: its brake and each runbook's last run", async () => {
    const { context, page, pageErrors } = await signedIn(APPROVER, '/ui/clusters');
    expect(page.url()).toBe(`${base}/ui/clusters`);
    const main = (await page.textContent('main')) ?? '';
    expect(main).toContain('prod-eu');
    for (const runbook of ['host-identity', 'unmanaged-pods']) expect(main).toContain(runbook);
    await checkPage(page, 'clusters');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a non-approver is offered no decision, and a decision posted anyway is refused: the plan still waits', async () => {
    const waiting = await runOf('unmanaged-pods');
    const { context, page, pageErrors } = await signedIn(BYSTANDER, `/ui/runs/${waiting.runId}`);
    expect(page.url()).toBe(`${base}/ui/runs/${waiting.runId}`);
    expect(await page.locator('button[value=approve]').count()).toBe(0);
    // A hand-made form with this session's own token, from the console's own page: only the approver check stands.
    await Promise.all([
      page.waitForNavigation(),
      page.evaluate((action) => {
        const token = document.querySelector<HTMLInputElement>('input[name=csrf]')?.value ?? '';
        const form = document.createElement('form');
        form.method = 'post';
        form.action = action;
        for (const [name, value] of [
          ['csrf', token],
          ['decision', 'approve'],
        ] as const) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name;
          input.value = value;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      }, `/ui/runs/${waiting.runId}/decision`),
    ]);
    expect(await page.textContent('.notice')).toBe(`<@${BYSTANDER}> may not approve unmanaged-pods runs`);
    expect(await drain()).toBe(0);
    expect((await store.runs.get(waiting.runId))?.decision).toBeUndefined();
    await checkPage(page, 'run-refused');
    // The refusal's own status is the one error the browser reports.
    expect(pageErrors).toEqual([expect.stringMatching(/status of 403 \(Forbidden\)/)]);
    await context.close();
  });

  it('the approver approves the waiting plan from its page: the plan runs, and the page says who decided', async () => {
    const waiting = await runOf('unmanaged-pods');
    const { context, page, pageErrors } = await signedIn(APPROVER, `/ui/runs/${waiting.runId}`);
    await checkPage(page, 'run-waiting');
    await Promise.all([page.waitForNavigation(), page.click('button[value=approve]')]);
    // Post/Redirect/Get: the browser lands on the run's own page, which says who decided, from the store.
    expect(page.url()).toBe(`${base}/ui/runs/${waiting.runId}`);
    expect(await page.textContent('main')).toContain(`approved by Ada Approver (${APPROVER})`);
    expect(await page.locator('button[value=approve]').count()).toBe(0);
    expect(await drain()).toBe(1);
    const decided = await store.runs.get(waiting.runId);
    expect(decided?.decision).toMatchObject({ outcome: 'approved', by: APPROVER, approved: waiting.plan });
    // A reload asks for the page again: nothing is posted twice.
    await page.reload();
    expect(await drain()).toBe(0);
    await checkPage(page, 'run-approved');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
