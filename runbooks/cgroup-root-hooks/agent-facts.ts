import type { AgentPod, CiliumFacade, ExecResult } from '../../src/cluster/types.ts';
import { parseCgroupNamespace, parseInode } from './cgroup-signals.ts';
import { type CgroupTree, parseCgroupTree } from './cgroup-tree.ts';
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

type Section = 'stat' | 'readlink' | 'tree-json' | 'tree-text';

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
 * status after it: the stat, the namespace link, and the walk from the cgroup root (`bpftool
 * cgroup tree`), as JSON or, when bpftool -j fails, as text. One exec (one WebSocket and TLS
 * connection) per agent. The walk, not `bpftool cgroup show` of the root alone, because the
 * answer needs both places: the root (where the hooks belong) and every scope below it (where a
 * private cgroup namespace, or an agent restarted out of one, leaves them).
 */
export function agentFactsScript(root: string): string {
  const path = shellQuote(root);
  return [
    `${begin('stat')}; stat -c %i ${path}; ${end('stat')}`,
    `${begin('readlink')}; readlink /proc/self/ns/cgroup; ${end('readlink')}`,
    `${begin('tree-json')}; bpftool -j cgroup tree ${path} && ${end('tree-json')} || { ${end('tree-json')}; ${begin('tree-text')}; bpftool cgroup tree ${path}; ${end('tree-text')}; }`,
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

/** The walk as text, alone (one more exec): for JSON that bpftool printed but that does not parse. */
async function textWalk(cilium: AgentExec, agent: AgentPod, root: string): Promise<CgroupTree> {
  const command = ['bpftool', 'cgroup', 'tree', root];
  const result = await cilium.exec(agent, command);
  if (result.exitCode === 0) return parseCgroupTree(result.stdout.toString());
  throw new Error(`${command.join(' ')}: ${failureText(result)}`);
}

/** The walk from the script: JSON, or the text form when -j failed in it. */
async function walkFrom(
  cilium: AgentExec,
  agent: AgentPod,
  root: string,
  result: ExecResult,
): Promise<CgroupTree> {
  const json = sectionOf(result, 'tree-json');
  if (json?.exitCode === 0) {
    try {
      return parseCgroupTree(json.stdout);
    } catch {
      return textWalk(cilium, agent, root);
    }
  }
  if (!json) stdoutOf(result, 'tree-json', `bpftool -j cgroup tree ${root}`);
  return parseCgroupTree(stdoutOf(result, 'tree-text', `bpftool cgroup tree ${root}`));
}

/** Both signals from inside the agent container and the walk from its cgroup root, in one exec. */
export async function readAgentFacts(
  cilium: AgentExec,
  agent: AgentPod,
  root: string,
): Promise<AgentCgroupFacts> {
  const result = await cilium.exec(agent, ['sh', '-c', agentFactsScript(root)]);
  const inode = parseInode(stdoutOf(result, 'stat', `stat -c %i ${root}`));
  const namespace = parseCgroupNamespace(stdoutOf(result, 'readlink', 'readlink /proc/self/ns/cgroup'));
  const tree = await walkFrom(cilium, agent, root, result);
  return { agent, root, inode, namespace, tree };
}
