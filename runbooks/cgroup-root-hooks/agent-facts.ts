import type { AgentPod, CiliumFacade, ExecResult } from '../../sdk/index.ts';
import { LINK_COMMAND, parseLinkShow } from './cgroup-links.ts';
import { CGROUP2_FS, parseCgroupNamespace, parseFsType, parseInode } from './cgroup-signals.ts';
import { type CgroupTree, parseCgroupTree } from './cgroup-tree.ts';
import { failureText } from './command-output.ts';
import type { LinkListing } from './hook-sets.ts';
import type { AgentCgroupFacts } from './placement.ts';

/** All this needs of the Cilium facade. */
type AgentExec = Pick<CiliumFacade, 'exec'>;

/** The marker that opens and closes each command's output in the script's streams. */
const MARK = '@@responder';

/** A word for sh: single-quoted, an embedded `'` closed, escaped and reopened. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

type Section = 'stat' | 'fstype' | 'readlink' | 'tree-json' | 'tree-text' | 'links';

/** Before a command: its marker on both streams, so each stream can be cut per command. */
function begin(section: Section): string {
  return `printf '\\n${MARK} begin %s\\n' ${section}; printf '\\n${MARK} begin %s\\n' ${section} >&2`;
}

/** After a command: its exit status, on stdout. */
function end(section: Section): string {
  return `printf '\\n${MARK} end %s %d\\n' ${section} $?`;
}

/**
 * One `sh -c` that prints every fact, each command's output between markers with its exit status
 * after it: the root's inode and filesystem type, the namespace link, the walk from the cgroup
 * root (`bpftool cgroup tree`, as JSON or, when bpftool -j fails, as text), and the bpf links with
 * their pins (`bpftool -j -f link show`: a cgroup link carries its cgroup's id, so links on a
 * removed cgroup, which no walk reaches, still show). One exec (one WebSocket and TLS connection)
 * per agent. The walk, not `bpftool cgroup show` of the root alone, because the answer needs the
 * root (where the hooks belong) and every scope below it (where a private cgroup namespace, or an
 * agent restarted out of one, leaves them).
 */
export function agentFactsScript(root: string): string {
  const path = shellQuote(root);
  return [
    `${begin('stat')}; stat -c %i ${path}; ${end('stat')}`,
    `${begin('fstype')}; stat -f -c %T ${path}; ${end('fstype')}`,
    `${begin('readlink')}; readlink /proc/self/ns/cgroup; ${end('readlink')}`,
    `${begin('tree-json')}; bpftool -j cgroup tree ${path} && ${end('tree-json')} || { ${end('tree-json')}; ${begin('tree-text')}; bpftool cgroup tree ${path}; ${end('tree-text')}; }`,
    `${begin('links')}; ${LINK_COMMAND}; ${end('links')}`,
  ].join('\n');
}

const NOT_WALKED: CgroupTree = { cgroups: [], socketHooks: [], foreignHooks: [] };

/** What one command in the script printed, and how it exited. */
interface SectionResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** The script's result with both streams decoded once: each section is cut from the same text. */
interface ScriptOutput {
  result: ExecResult;
  stdout: string;
  stderr: string;
}

function sectionOf(output: ScriptOutput, section: Section): SectionResult | undefined {
  const { stdout, stderr } = output;
  const opening = `\n${MARK} begin ${section}\n`;
  const start = stdout.indexOf(opening);
  if (start < 0) return undefined;
  const closing = new RegExp(`\\n${MARK} end ${section} (\\d+)\\n`, 'g');
  closing.lastIndex = start + opening.length;
  const match = closing.exec(stdout);
  if (!match) return undefined;
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
function stdoutOf(output: ScriptOutput, section: Section, command: string): string {
  const part = sectionOf(output, section);
  if (!part) {
    throw new Error(`sh -c (${command} and the other agent facts): ${failureText(output.result)}`);
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
  output: ScriptOutput,
): Promise<CgroupTree> {
  const json = sectionOf(output, 'tree-json');
  if (json?.exitCode === 0) {
    try {
      return parseCgroupTree(json.stdout);
    } catch {
      return textWalk(cilium, agent, root);
    }
  }
  if (!json) stdoutOf(output, 'tree-json', `bpftool -j cgroup tree ${root}`);
  return parseCgroupTree(stdoutOf(output, 'tree-text', `bpftool cgroup tree ${root}`));
}

/**
 * The links, or why they could not be read: bpftool's JSON error (it prints `{"error": ...}` on
 * stdout in JSON mode), its stderr, or the exit code. Never "no links" for a command that failed.
 */
function linksFrom(output: ScriptOutput): LinkListing {
  const part = sectionOf(output, 'links');
  if (!part) return { error: `${LINK_COMMAND}: no answer` };
  try {
    const links = parseLinkShow(part.stdout);
    if (part.exitCode === 0) return { links };
  } catch (error) {
    return { error: `${LINK_COMMAND}: ${(error as Error).message}` };
  }
  return { error: `${LINK_COMMAND}: ${part.stderr.trim() || `exit code ${part.exitCode}`}` };
}

/** The signals from inside the agent container, the walk from its cgroup root and its links, in one exec. */
export async function readAgentFacts(
  cilium: AgentExec,
  agent: AgentPod,
  root: string,
): Promise<AgentCgroupFacts> {
  const result = await cilium.exec(agent, ['sh', '-c', agentFactsScript(root)]);
  const output: ScriptOutput = { result, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
  const inode = parseInode(stdoutOf(output, 'stat', `stat -c %i ${root}`));
  const fsType = parseFsType(stdoutOf(output, 'fstype', `stat -f -c %T ${root}`));
  const namespace = parseCgroupNamespace(stdoutOf(output, 'readlink', 'readlink /proc/self/ns/cgroup'));
  // Not cgroup2: nothing there to walk, and the judgement says so whatever bpftool printed.
  const tree = fsType === CGROUP2_FS ? await walkFrom(cilium, agent, root, output) : NOT_WALKED;
  return { agent, root, inode, fsType, namespace, tree, links: linksFrom(output) };
}
