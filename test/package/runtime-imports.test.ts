import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRIES, FUNCTION_ENTRIES, LIB_ENTRIES } from '../../scripts/entries.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/** What a team's `npm install` of the package brings (peers: what the docs tell them to add). */
const installed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);

/** `@scope/name/sub/path` → `@scope/name`, `name/sub` → `name`. */
const packageOf = (path: string) =>
  path
    .split('/')
    .slice(0, path.startsWith('@') ? 2 : 1)
    .join('/');

/** Every package the code reachable from `entries` imports at run time (type-only imports vanish), and its own files. */
async function reach(entries: string[]): Promise<{ packages: string[]; files: string[] }> {
  const { metafile } = await build({
    entryPoints: entries,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    metafile: true,
    outdir: 'out',
    logLevel: 'silent',
  });
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports);
  const packages = imports.filter((i) => i.external && !isBuiltin(i.path)).map((i) => packageOf(i.path));
  return { packages: [...new Set(packages)].sort(), files: Object.keys(metafile.inputs) };
}

/** The files the CLI's sources name with projectFile('...'): read beside the installed package. */
function projectFilesRead(): string[] {
  const sources = readdirSync('cli', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  return sources.flatMap((file) =>
    [...readFileSync(join('cli', file), 'utf8').matchAll(/projectFile\('([^']+)'\)/g)].map(
      (m) => m[1] as string,
    ),
  );
}

describe('the installed package finds everything it imports', () => {
  it('the command, the library and the functions import only dependencies and peers, never a devDependency', async () => {
    const entries = [...Object.values(CLI_ENTRIES), ...Object.values(LIB_ENTRIES), ...FUNCTION_ENTRIES];
    const { packages } = await reach(entries);
    expect(packages.length).toBeGreaterThan(10);
    expect(packages.filter((name) => !installed.has(name))).toEqual([]);
  }, 60_000);

  it("the functions, bundled from the installed sources at a team's synth, reach only shipped files", async () => {
    const { files } = await reach(FUNCTION_ENTRIES);
    const shipped = (file: string) =>
      pkg.files.some((entry) => file === entry || file.startsWith(`${entry}/`)) || file === 'package.json';
    expect(files.filter((file) => !shipped(file))).toEqual([]);
  }, 60_000);

  it('ships every file the command reads from the package (the example config for the demo and serve)', () => {
    const read = projectFilesRead();
    expect(read).toContain('responder.config.example.yaml');
    expect(read.filter((file) => !pkg.files.includes(file))).toEqual([]);
  });
});
