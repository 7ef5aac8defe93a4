import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNBOOKS } from '../../../runbooks/index.ts';
import { ConfigError } from '../../../src/config/check.ts';
import { loadDeployedConfig } from '../../../src/config/deployed.ts';
import { deployedConfigText } from '../../../src/config/deployed-text.ts';
import { loadConfig } from '../../../src/config/load.ts';

const EXAMPLE = 'responder.config.example.yaml';
const RUNBOOK_IDS = RUNBOOKS.map((runbook) => runbook.id);

describe('the config as the stack ships it (JSON, validated at synth, read without its schema)', () => {
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

  it('a config the schema refuses is never written: the problem names its field', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const wrong = {
      ...config,
      limits: { ...config.limits, leaseSeconds: 'soon' },
    } as unknown as typeof config;
    expect(() => deployedConfigText(wrong, 'CiliumResponder config')).toThrow(ConfigError);
    expect(() => deployedConfigText(wrong, 'CiliumResponder config')).toThrow(
      /^CiliumResponder config: limits\.leaseSeconds: .*expected number/,
    );
  });

  it('a file that is not JSON is a ConfigError naming the file', async () => {
    const broken = await written('broken.json', 'clusters: []');
    await expect(loadDeployedConfig(broken)).rejects.toThrow(ConfigError);
    await expect(loadDeployedConfig(broken)).rejects.toThrow(`${broken}: not JSON`);
  });

  it('names a route to a runbook this function does not know', async () => {
    const config = await loadConfig(EXAMPLE, { runbooks: RUNBOOK_IDS });
    const path = await written('routes.json', deployedConfigText(config));
    await expect(loadDeployedConfig(path, { runbooks: ['host-identity'] })).rejects.toThrow(
      new RegExp(`^${path}: routes\\.\\d+\\.runbook: unknown runbook "[a-z-]+"; known: host-identity`),
    );
  });

  it('a file that is missing says so', async () => {
    await expect(loadDeployedConfig(join(dir, 'absent.json'))).rejects.toThrow(
      `cannot read config ${join(dir, 'absent.json')}: ENOENT`,
    );
  });
});
