import { writeFileSync } from 'node:fs';
import { bundleLikeTheDeploy } from '/work/wt/coldstart/bench/bundle-like-deploy.ts';
import { parseConfig } from '/work/wt/coldstart/src/config/load.ts';
import { RUNBOOK_IDS } from '/work/wt/coldstart/runbooks/catalog.ts';
import { deployedConfigText } from '/work/wt/coldstart/src/config/deployed-text.ts';
const CONFIG = `
clusters:
  - name: prod-eu
    eks: { name: prod-eu, region: eu-west-1 }
    channel: '#prod-eu'
  - name: prod-us
    eks: { name: prod-us, region: us-east-1 }
routes:
  - match: { alertname: CiliumUnmanagedPods }
    runbook: unmanaged-pods
`;
await bundleLikeTheDeploy('functions/http.ts', '/tmp/cs/http/index.mjs', { sourcemap: true });
writeFileSync('/tmp/cs/http/responder.config.json', deployedConfigText(parseConfig(CONFIG, 'x', { runbooks: RUNBOOK_IDS })));
