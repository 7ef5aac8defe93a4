/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { Session } from '../session.ts';

/**
 * Every console page's frame: the title, the navigation and who is signed in. Everything shown is
 * text through JSX, so hono escapes it: nothing from an alert or a cluster becomes markup. No
 * script, one stylesheet from /ui (the Content-Security-Policy allows nothing else).
 */
export function Layout(props: { title: string; session?: Session; children: Child }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · Cilium Responder`}</title>
        <link rel="stylesheet" href="/ui/style.css" />
      </head>
      <body>
        <header>
          <nav aria-label="Console">
            <a href="/ui/runs">Runs</a>
            <a href="/ui/clusters">Clusters</a>
          </nav>
          {props.session ? (
            <form class="who" method="post" action="/ui/sign-out">
              signed in as {props.session.name ?? props.session.userId}{' '}
              <input type="hidden" name="csrf" value={props.session.csrf} />
              <button type="submit">Sign out</button>
            </form>
          ) : null}
        </header>
        <main>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}
