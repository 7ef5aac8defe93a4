import type { AgentPod, CiliumFacade, ExecResult } from '../../src/cluster/types.ts';
import { parseCgroupNamespace, parseInode, ROOT_CGROUP_INODE } from './cgroup-signals.ts';
import { type CgroupTree, parseCgroupShow, parseCgroupTree } from './cgroup-tree.ts';
import { failureText } from './command-output.ts';
import type { AgentCgroupFacts } from './placement.ts';

/** All this needs of the Cilium facade. */
type AgentExec = Pick<CiliumFacade, 'exec'>;

/** The marker that opens and closes each command's output in the script's streams. */
const MARK = '@@responder';

/** A word for sh: single-quoted, an embedded `'` closed, escaped and reopened. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

type Section = 'stat' | 'readlink' | 'show-json' | 'show-text';

/** Before a command: its marker on both streams, so each stream can be cut per command. */
function begin(section: Section): string {
  return `printf '\\n${MARK} begin %s\\n' ${section}; printf '\\n${MARK} begin %s\\n' ${section} >&2`;
}

/** After a command: its exit status, on stdout. */
function end(section: Section): string {
  return `printf '\\n${MARK} end %s %d\\n' ${section} $?`;
}

/**
 * One `sh -c` that prints all three facts, each command's output between markers with its exit
 * status after it: the stat, the namespace link, and the programs on the cgroup root (`bpftool
 * cgroup show`), as JSON or, when bpftool -j fails, as text. One exec (one WebSocket and TLS
 * connection) per agent instead of three or four, and the root's few programs instead of a walk
 * over every container scope (about 26 KB each on a busy node).
 */
export function agentFactsScript(root: string): string {
  const path = shellQuote(root);
  return [
    `${begin('stat')}; stat -c %i ${path}; ${end('stat')}`,
    `${begin('readlink')}; readlink /proc/self/ns/cgroup; ${end('readlink')}`,
    `${begin('show-json')}; bpftool -j cgroup show ${path} && ${end('show-json')} || { ${end('show-json')}; ${begin('show-text')}; bpftool cgroup show ${path}; ${end('show-text')}; }`,
  ].join('\n');
}

/** What one command in the script printed, and how it exited. */
interface SectionResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

function sectionOf(result: ExecResult, section: Section): SectionResult | undefined {
  const stdout = result.stdout.toString();
  const opening = `\n${MARK} begin ${section}\n`;
  const start = stdout.indexOf(opening);
  if (start < 0) return undefined;
  const closing = new RegExp(`\\n${MARK} end ${section} (\\d+)\\n`, 'g');
  closing.lastIndex = start + opening.length;
  const match = closing.exec(stdout);
  if (!match) return undefined;
  const stderr = result.stderr.toString();
  const errStart = stderr.indexOf(opening);
  let errText = '';
  if (errStart >= 0) {
    const from = errStart + opening.length;
    const next = stderr.indexOf(`\n${MARK} begin `, from);
    errText = stderr.slice(from, next < 0 ? undefined : next);
  }
  return {
    stdout: stdout.slice(start + opening.length, match.index),
    stderr: errText,
    exitCode: Number(match[1]),
  };
}

/** One command's stdout from the script; a non-zero exit is an error naming the command and what it said. */
function stdoutOf(result: ExecResult, section: Section, command: string): string {
  const part = sectionOf(result, section);
  if (!part) {
    throw new Error(`sh -c (${command} and the other agent facts): ${failureText(result)}`);
  }
  if (part.exitCode === 0) return part.stdout;
  const said = part.stderr.trim() || `exit code ${part.exitCode}`;
  throw new Error(`${command}: ${said}`);
}

/** A bpftool listing as a tree: JSON first, the text form when JSON fails or does not parse. */
async function listing(
  cilium: AgentExec,
  agent: AgentPod,
  command: 'show' | 'tree',
  root: string,
  parse: (output: string) => CgroupTree,
): Promise<CgroupTree> {
  const json = await cilium.exec(agent, ['bpftool', '-j', 'cgroup', command, root]);
  if (json.exitCode === 0) {
    try {
      return parse(json.stdout.toString());
    } catch {
      // Fall through to the text form, whose parser reports what is wrong if it fails too.
    }
  }
  const text = ['bpftool', 'cgroup', command, root];
  const result = await cilium.exec(agent, text);
  if (result.exitCode === 0) return parse(result.stdout.toString());
  throw new Error(`${text.join(' ')}: ${failureText(result)}`);
}

/** The programs on the root, from the script: JSON, or the text form when -j failed in it. */
async function rootPrograms(
  cilium: AgentExec,
  agent: AgentPod,
  root: string,
  result: ExecResult,
): Promise<CgroupTree> {
  const parse = (output: string) => parseCgroupShow(output, root);
  const json = sectionOf(result, 'show-json');
  if (json?.exitCode === 0) {
    try {
      return parse(json.stdout);
    } catch {
      // JSON that does not parse: ask for the text form alone (one more exec).
      return listing(cilium, agent, 'show', root, parse);
    }
  }
  if (!json) stdoutOf(result, 'show-json', `bpftool -j cgroup show ${root}`);
  return parse(stdoutOf(result, 'show-text', `bpftool cgroup show ${root}`));
}

/**
 * Both signals from inside the agent container and the programs on its cgroup root, in one exec.
 * On the host's root (inode 1) without Cilium's hooks, the whole walk follows (one more exec, on
 * broken nodes only), to say whether the hooks sit on a sub-cgroup or nowhere.
 */
export async function readAgentFacts(
  cilium: AgentExec,
  agent: AgentPod,
  root: string,
): Promise<AgentCgroupFacts> {
  const result = await cilium.exec(agent, ['sh', '-c', agentFactsScript(root)]);
  const inode = parseInode(stdoutOf(result, 'stat', `stat -c %i ${root}`));
  const namespace = parseCgroupNamespace(stdoutOf(result, 'readlink', 'readlink /proc/self/ns/cgroup'));
  const onRoot = await rootPrograms(cilium, agent, root, result);
  const tree =
    inode === ROOT_CGROUP_INODE && onRoot.socketHooks.length === 0
      ? await listing(cilium, agent, 'tree', root, parseCgroupTree)
      : onRoot;
  return { agent, root, inode, namespace, tree };
}
