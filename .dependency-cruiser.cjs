/**
 * The import rules of docs/architecture.md, checked in CI (`npm run deps`).
 * Layers, lowest first: cluster, aws, config, triggers, engine, params, report → store, queue, chat →
 * slack, routing → worker → app. runbooks/<id>/ sit on the SDK (sdk/index.ts); functions/ and cli/ on app.
 */
module.exports = {
  forbidden: [
    {
      name: 'core-free-of-entries',
      comment:
        'src/ is the core: it never imports the Lambda entries, the CLI, the simulator or the runbooks.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(functions|cli|sim|runbooks|bench|test)/' },
    },
    {
      name: 'core-free-of-lambda-and-http',
      comment: 'No hono, no Lambda types, no Powertools in the core: handlers adapt, the core decides.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: 'node_modules/(hono|@hono/|@types/aws-lambda|@aws-lambda-powertools/)' },
    },
    {
      name: 'runbook-params-are-schemas-only',
      comment:
        "A runbook's params.ts is its zod schema and nothing else: runbooks/catalog.ts hands it to admission in the http, alarm and sweep bundles, which must carry no runbook code.",
      severity: 'error',
      from: { path: '^runbooks/[^/]+/params\\.ts$' },
      to: { pathNot: 'node_modules/zod/' },
    },
    {
      name: 'runbooks-through-facades',
      comment: 'Runbooks get the cluster and AWS through the step context: no client, no connection code.',
      severity: 'error',
      from: { path: '^runbooks/' },
      to: {
        path: [
          'node_modules/(@kubernetes/client-node|@aws-sdk/)',
          '^src/cluster/(kube|http|exec|connect|eks|eks-token|access)\\.ts$',
          '^src/aws/credentials\\.ts$',
          '^src/(app|worker|routing|store|queue|slack|chat)/',
        ],
      },
    },
    {
      name: 'runbooks-on-the-sdk',
      comment:
        "A built-in runbook is written as a team's is: it imports the SDK's entry point (sdk/index.ts) and its own files, nothing of src/ or of another runbook.",
      severity: 'error',
      from: { path: '^runbooks/([^/]+)/' },
      to: {
        path: '^(src|sdk|runbooks|sim|cli|functions|cdk)/',
        pathNot: ['^runbooks/$1/', '^sdk/index\\.ts$'],
      },
    },
    {
      name: 'packages-through-their-public-api',
      comment: "A file a package does not export can move in any upgrade (client-node's exec did).",
      severity: 'error',
      from: {},
      to: { path: 'node_modules/@kubernetes/client-node/dist/(?!index\\.js$)' },
    },
    {
      name: 'no-upward-imports',
      comment: 'A lower layer never imports a higher one.',
      severity: 'error',
      from: { path: '^src/(cluster|aws|config|triggers|engine|params|validation|report)/' },
      to: { path: '^src/(store|queue|chat|slack|routing|worker|app)/' },
    },
    {
      name: 'no-upward-imports-middle',
      severity: 'error',
      from: { path: '^src/(store|queue|chat)/' },
      to: { path: '^src/(slack|routing|worker|app)/' },
    },
    {
      name: 'no-upward-imports-top',
      severity: 'error',
      from: { path: '^src/(slack|routing|worker)/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'sdk-carries-no-client',
      comment:
        "What a team's runbook imports (cilium-responder/sdk) carries no client and no connection code: it is bundled into their worker beside ours.",
      severity: 'error',
      from: { path: '^sdk/(index|define|findings|errors|rules)\\.ts$' },
      to: {
        path: [
          'node_modules/(@kubernetes/client-node|@aws-sdk/)',
          '^src/cluster/(kube|http|exec|connect|eks|eks-token|access|connection)\\.ts$',
          '^(sim|cli|functions)/',
        ],
      },
    },
    {
      name: 'no-module-cycles',
      severity: 'error',
      from: { path: '^(src|runbooks|functions|cli|sdk)/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'Folders form no cycle either (src/aws ↔ src/cluster, sdk ↔ runbooks): checked on the graph of folders, where each import counts as one from its folder to the imported one.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(src|runbooks|functions|cli|sdk|cdk)(/|$)' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.json'] },
    exclude: { path: '(^|/)(dist|cdk\\.out)/' },
  },
};
