import type { AgentInvocation } from '../../types.ts';
import { CONTAINER_CGROUP_MOUNT } from '../fs/agent-cgroup-mounts.ts';
import { lookupPath } from '../fs/container-fs.ts';
import { type Cgroup, hostCgroupTree, inheritedPrograms } from './cgroup-hierarchy.ts';
import {
  type Query,
  showHeader,
  showJson,
  shownPrograms,
  showText,
  treeHeader,
  treeJson,
  treeText,
} from './cgroup-output.ts';
import { bpftoolJson, type JsonValue } from './json-writer.ts';
import { linkJson, linkText, nodeLinks } from './links.ts';

interface Options {
  json: boolean;
  pretty: boolean;
  version: boolean;
  /** -f/--bpffs: show where objects are pinned. */
  pinned: boolean;
  positionals: string[];
  unknown?: string;
}

const EXIT_FAILURE = 255;

/**
 * A walk's output per walked cgroup, a node of the host tree (which hostCgroupTree keeps only while
 * what it is built from stays the same, and nobody changes), and per way of asking: a fan-out asks
 * every agent the same walk round after round, and printing its hundred cgroups was most of the
 * simulator's time per exec.
 */
const walks = new WeakMap<Cgroup, Map<string, string>>();

function walkOutput(cgroup: Cgroup, asked: string, print: () => string): string {
  let byAsking = walks.get(cgroup);
  if (!byAsking) {
    byAsking = new Map();
    walks.set(cgroup, byAsking);
  }
  let output = byAsking.get(asked);
  if (output === undefined) {
    output = print();
    byAsking.set(asked, output);
  }
  return output;
}

/** bpftool's `is_prefix`: a command may be abbreviated (`cg tr` for `cgroup tree`). */
function isPrefix(word: string | undefined, full: string): boolean {
  return word !== undefined && word.length > 0 && full.startsWith(word);
}

/** getopt_long as bpftool calls it: options may come anywhere, short ones may be combined (`-jp`). */
function parseOptions(args: string[]): Options {
  const options: Options = { json: false, pretty: false, version: false, pinned: false, positionals: [] };
  for (const arg of args) {
    if (arg === '--json') options.json = true;
    else if (arg === '--pretty') options.pretty = options.json = true;
    else if (arg === '--version') options.version = true;
    else if (arg === '--bpffs') options.pinned = true;
    else if (/^-[jpVfmnd]+$/.test(arg)) {
      if (arg.includes('j')) options.json = true;
      if (arg.includes('p')) options.pretty = options.json = true;
      if (arg.includes('V')) options.version = true;
      if (arg.includes('f')) options.pinned = true;
    } else if (arg.startsWith('-') && arg !== '-') options.unknown ??= arg;
    else options.positionals.push(arg);
  }
  return options;
}

/**
 * `bpftool [-j|-p] [-f] { cgroup { tree [ROOT] | show CGROUP } | link show }` inside the agent
 * container, walking the cgroup2 mount the path names; `link show` lists the node's links. Errors go through p_err: `Error: ...` on stderr, or
 * `{"error": ...}` in the JSON stream; failures exit 255 (bpftool returns -1).
 */
export function bpftool({ ctx, agent, argv, io }: AgentInvocation): number {
  const options = parseOptions(argv.slice(1));
  const flavor = { spelling: agent.bpftool.spelling };
  const binName = argv[0] ?? 'bpftool';
  const emitJson = (value: JsonValue) => io.stdout(bpftoolJson(value, options.pretty));
  const fail = (message: string, partialJson?: JsonValue[]) => {
    if (options.json) emitJson(partialJson ? [...partialJson, { error: message }] : { error: message });
    else io.stderr(`Error: ${message}\n`);
    return EXIT_FAILURE;
  };

  if (options.unknown) return fail(`unrecognized option '${options.unknown}'`);
  if (options.version) {
    io.stdout(
      flavor.spelling === 'libbpf'
        ? `${binName} v7.1.0\nusing libbpf v1.1\nfeatures: libbpf_strict\n`
        : `${binName} v5.10.0\n`,
    );
    return 0;
  }
  const [object, command, ...rest] = options.positionals;
  if (isPrefix(object, 'link')) {
    if (!(command === undefined || isPrefix(command, 'show') || isPrefix(command, 'list')) || rest.length > 0)
      return fail(`unrecognized command '${[command, ...rest].join(' ')}'`);
    const links = nodeLinks(agent);
    // bpftool adds `pinned` to each link only when its table of pins is not empty.
    const pinned = options.pinned && links.some((link) => link.pinned);
    if (options.json) emitJson(links.map((link) => linkJson(link, flavor, pinned)));
    else io.stdout(links.map((link) => linkText(link, flavor, options.pinned)).join(''));
    return 0;
  }
  if (!isPrefix(object, 'cgroup')) return fail(`unrecognized command '${object ?? ''}'`);
  const query: Query = { flavor, effective: isPrefix(rest[1], 'effective') };
  const inherited = (hostPath: string) => inheritedPrograms(hostCgroupTree(ctx.cluster, agent), hostPath);

  if (isPrefix(command, 'tree')) {
    const root = rest[0] ?? CONTAINER_CGROUP_MOUNT;
    if (!options.json) io.stdout(treeHeader(query.effective));
    const entry = lookupPath(ctx, root);
    if (!entry) return fail(`can't iterate over ${root}: No such file or directory`, []);
    if (entry.kind === 'directory')
      return fail(`can't query bpf programs attached to ${root}: Bad file descriptor`, []);
    if (entry.kind !== 'cgroup') {
      if (options.json) emitJson([]);
      return 0;
    }
    const { cgroup, hostPath } = entry.cgroup;
    const asked = JSON.stringify([
      options.json,
      options.pretty,
      root,
      hostPath,
      query.effective,
      flavor.spelling,
    ]);
    io.stdout(
      walkOutput(cgroup, asked, () =>
        options.json
          ? bpftoolJson(treeJson(cgroup, root, query, inherited(hostPath)), options.pretty)
          : treeText(cgroup, root, query, inherited(hostPath)),
      ),
    );
    return 0;
  }

  if (isPrefix(command, 'show') || isPrefix(command, 'list')) {
    const path = rest[0];
    if (path === undefined) return fail(`'${command}' needs at least 1 arguments, 0 found`);
    const entry = lookupPath(ctx, path);
    if (!entry) return fail(`can't open cgroup ${path}`);
    if (entry.kind !== 'cgroup')
      return fail(`can't query bpf programs attached to ${path}: Bad file descriptor`);
    const programs = shownPrograms(entry.cgroup.cgroup, query, inherited(entry.cgroup.hostPath));
    // bpftool's do_show returns before its header when nothing is attached: -j prints just the newline.
    if (programs.length === 0) {
      if (options.json) io.stdout('\n');
      return 0;
    }
    if (options.json) emitJson(showJson(programs, query));
    else io.stdout(showHeader(query.effective) + showText(programs, query));
    return 0;
  }

  return fail(`unrecognized command '${command ?? ''}'`);
}
