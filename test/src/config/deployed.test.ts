import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { ConfigError } from '../../../src/config/check.ts';
import { deployedConfigText, loadDeployedConfig } from '../../../src/config/deployed.ts';
import { loadConfig } from '../../../src/config/load.ts';

const EXAMPLE = 'responder.config.example.yaml';
const RUNBOOK_IDS = RUNBOOKS.map((runbook) => runbook.id);

describe('the config as the stack ships it (JSON, validated at synth)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'deployed-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const written = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  it('loads back as the same config the YAML file gives, defaults and all', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const path = await written('responder.config.json', deployedConfigText(config));
    expect(await loadDeployedConfig(path, { runbooks: RUNBOOK_IDS })).toEqual(config);
  });

  it('a file that is not JSON, or a field the schema refuses, is a ConfigError naming the file and the field', async () => {
    const broken = await written('broken.json', 'clusters: []');
    await expect(loadDeployedConfig(broken)).rejects.toThrow(ConfigError);
    await expect(loadDeployedConfig(broken)).rejects.toThrow(`${broken}: not JSON`);
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const wrong = await written(
      'wrong.json',
      JSON.stringify({ ...config, limits: { ...config.limits, leaseSeconds: 'soon' } }),
    );
    await expect(loadDeployedConfig(wrong)).rejects.toThrow(`${wrong}: limits.leaseSeconds: `);
    await expect(loadDeployedConfig(wrong)).rejects.toThrow(/expected number/);
  });

  it('names a route to a runbook this function does not know', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const path = await written('routes.json', deployedConfigText(config));
    await expect(loadDeployedConfig(path, { runbooks: ['host-identity'] })).rejects.toThrow(
      /routes\.\d+\.runbook: unknown runbook "[a-z-]+"; known: host-identity/,
    );
  });

  it('a file that is missing says so', async () => {
    await expect(loadDeployedConfig(join(dir, 'absent.json'))).rejects.toThrow(
      `cannot read config ${join(dir, 'absent.json')}: ENOENT`,
    );
  });
});
