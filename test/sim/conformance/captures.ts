import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** test/fixtures/captured/, written by `npm run capture` (scripts/capture/) from the real tools. */
const CAPTURED = join(import.meta.dirname, '../../fixtures/captured');

export interface Capture {
  kind: 'cgroup' | 'iptables';
  situation: string;
  command: string[];
  exitCode: number;
  stdout: string;
  stderr: string;
}

interface Manifest {
  cgroupMount: string;
  agentScope: string;
  previousAgentScope: string;
  /** The system's bpftool build, then the others the kit ran (`bpftool v5.10.223`...). */
  bpftool: string;
  bpftoolBuilds: { version: string; debianPackage: string }[];
  captures: (Omit<Capture, 'stdout' | 'stderr'> & { stdout: string; stderr: string })[];
}

export const manifest: Manifest = JSON.parse(readFileSync(join(CAPTURED, 'manifest.json'), 'utf8'));

/** Every capture of a kind, with its stdout and stderr read byte for byte. */
export function captures(kind: Capture['kind']): Capture[] {
  return manifest.captures
    .filter((capture) => capture.kind === kind)
    .map((capture) => ({
      ...capture,
      stdout: readFileSync(join(CAPTURED, capture.stdout), 'utf8'),
      stderr: readFileSync(join(CAPTURED, capture.stderr), 'utf8'),
    }));
}

export function situations(kind: Capture['kind']): string[] {
  return [...new Set(captures(kind).map((capture) => capture.situation))];
}
