import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertmanagerNotification } from '../../cli/demo/alerts.ts';
import { type RunningCli, startCli } from './run-cli.ts';

const TOKEN = 'serve-console-token';
const OPERATOR = 'serve-console-operator';

/** What the browser sends back: the session cookie an answer set. */
const cookieOf = (answer: Response) => (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;

/** `responder serve`'s console: its one-time link, then the run of a demo alert as the page and the terminal say it. */
describe('responder serve: the console link', () => {
  let serve: RunningCli;
  let url: string;
  let link: string;

  beforeAll(async () => {
    serve = startCli(['serve', '--config', 'responder.config.example.yaml', '--port', '0'], {
      ALERTMANAGER_TOKEN: TOKEN,
      RESPONDER_OPERATOR_TOKEN: OPERATOR,
    });
    const output = await serve.waitFor(/console: (http:\/\/\S+)/);
    url = /responder ready at (http:\/\/[\d.:]+)/.exec(output)?.[1] as string;
    link = /console: (http:\/\/\S+)/.exec(output)?.[1] as string;
  });
  afterAll(async () => {
    await serve.stop();
  });

  it('prints a one-time sign-in link; the operator token is not a login', async () => {
    expect(link).toMatch(new RegExp(`^${url}/ui/sign-in/local\\?token=[\\w-]{20,}$`));
    const html = { accept: 'text/html' };
    expect((await fetch(`${url}/ui/runs`, { headers: html, redirect: 'manual' })).status).toBe(302);
    const bearer = await fetch(`${url}/ui/runs`, {
      headers: { ...html, authorization: `Bearer ${OPERATOR}` },
      redirect: 'manual',
    });
    expect(bearer.status).toBe(302);
  });

  it("signs the local user in once, and shows a demo alert's run as the terminal reported it", async () => {
    const signIn = await fetch(link, { redirect: 'manual' });
    expect(signIn.status).toBe(303);
    const set = signIn.headers.get('set-cookie') ?? '';
    // Served over http on the loopback: HttpOnly and SameSite, without Secure (browsers would drop it).
    expect(set).toMatch(/^responder-session=.*HttpOnly.*SameSite=Lax/);
    expect(set).not.toContain('Secure');
    const cookie = cookieOf(signIn);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);

    const alert = await fetch(`${url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        alertmanagerNotification('CiliumClusterIPUnreachable', 'ClusterIP down', 'sim', new Date()),
      ),
    });
    expect(alert.status).toBe(202);
    const { queued } = (await alert.json()) as { queued: { runId: string }[] };
    const runId = queued[0]?.runId as string;
    // The report on the terminal ends with the run's console page.
    const printed = await serve.waitFor(new RegExp(`console: ${url}/ui/runs/${runId}\\n`), 60_000);
    const diagnosis = /cgroup-root-hooks on sim: degraded[^\n]*\n {2}([^\n]+)\n/.exec(printed)?.[1] as string;
    expect(diagnosis).toBeDefined();

    const page = await (await fetch(`${url}/ui/runs/${runId}`, { headers: { cookie } })).text();
    const escaped = diagnosis
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&#39;');
    expect(page).toContain(`<p class="diagnosis">${escaped}</p>`);
    const list = await (await fetch(`${url}/ui/runs?cluster=sim`, { headers: { cookie } })).text();
    expect(list).toContain(`href="/ui/runs/${runId}"`);
    const report = await (await fetch(`${url}/ui/runs/${runId}/report.txt`, { headers: { cookie } })).text();
    expect(report).toContain(diagnosis);
  }, 90_000);
});
