import { describe, expect, it } from 'vitest';
import { ALERTMANAGER_TOKEN, FORM, OPERATOR_TOKEN, SLACK_SECRET } from '../harness.ts';
import { CONSOLE_SECRET, consoleUnderTest, ORIGIN } from './harness.ts';
import { HOSTILE, waitingRun } from './waiting-run.ts';

const PAGES = ['/ui/', '/ui/runs', '/ui/runs/run-wait-1', '/ui/runs/run-wait-1/report.txt', '/ui/clusters'];

async function withHostileRun() {
  const setup = consoleUnderTest();
  const record = waitingRun();
  // The diagnosis in the list, the error on the clusters page: both from what the cluster said.
  await setup.store.runs.put({
    ...record,
    summary: { diagnosis: HOSTILE.script, found: 1, fixed: 0, open: 1 },
  });
  return setup;
}

describe('console security', () => {
  it('needs a session for every page and every form', async () => {
    const { get, http } = await withHostileRun();
    for (const page of PAGES) {
      const answer = await get(page);
      expect(answer.status, page).toBe(302);
      expect(answer.headers.get('location'), page).toMatch(/^\/ui\/sign-in\?next=/);
    }
    for (const form of ['/ui/runs/run-wait-1/decision', '/ui/sign-out']) {
      const answer = await http.request(`${ORIGIN}${form}`, {
        method: 'POST',
        headers: { 'content-type': FORM, origin: ORIGIN },
        body: 'decision=approve&csrf=x',
      });
      expect(answer.status, form).toBe(401);
    }
  });

  it('sends a strict Content-Security-Policy with every page, signed in or not', async () => {
    const { get, signIn } = await withHostileRun();
    const cookie = await signIn();
    for (const [page, headers] of [
      ...PAGES.map((page) => [page, { cookie }] as const),
      ['/ui/sign-in', {}] as const,
      ['/ui/runs', {}] as const,
      ['/ui/runs/nope', { cookie }] as const,
    ]) {
      const answer = await get(page, headers);
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp, page).toContain("default-src 'none'");
      expect(csp, page).toContain("style-src 'self'");
      expect(csp, page).toContain("frame-ancestors 'none'");
      expect(csp, page).not.toMatch(/script-src|unsafe-inline|unsafe-eval/);
      expect(answer.headers.get('x-content-type-options'), page).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), page).toBe('no-referrer');
    }
  });

  it('shows hostile text from alerts and clusters as text on the list and the run', async () => {
    const { get, signIn } = await withHostileRun();
    const cookie = await signIn();
    for (const page of ['/ui/runs', '/ui/runs/run-wait-1']) {
      const html = await (await get(page, { cookie })).text();
      expect(html, page).not.toMatch(/<script|<img/);
      expect(html, page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
  });

  it('puts no secret on any page', async () => {
    const { get, signIn, local } = await withHostileRun();
    local.link(ORIGIN);
    const cookie = await signIn();
    for (const page of [...PAGES, '/ui/sign-in', '/ui/style.css']) {
      const text = await (await get(page, { cookie })).text();
      for (const secret of [SLACK_SECRET, ALERTMANAGER_TOKEN, OPERATOR_TOKEN, CONSOLE_SECRET])
        expect(text, page).not.toContain(secret);
    }
  });
});
