import type { KubeConfig } from '@kubernetes/client-node';

/** The part of a kubeconfig user's `exec` credential plugin that messages need. */
interface ExecPlugin {
  command: string;
  installHint?: string;
}

function execPlugin(kc: KubeConfig): ExecPlugin | undefined {
  const exec = (kc.getCurrentUser()?.exec ?? undefined) as Partial<ExecPlugin> | undefined;
  return typeof exec?.command === 'string' ? (exec as ExecPlugin) : undefined;
}

/**
 * A credential plugin's failure in client-go's words (what kubectl prints): the executable that is
 * missing, and the kubeconfig's install hint for it; or the executable that failed, with what it
 * said. Any other error is returned as it is.
 */
export function execPluginError(kc: KubeConfig, error: unknown): unknown {
  const plugin = execPlugin(kc);
  if (!plugin || !(error instanceof Error)) return error;
  const { code, syscall } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT' && syscall?.startsWith('spawn')) {
    // kubectl prints the hint on lines of its own; a report's step line holds one line.
    const hint = plugin.installHint?.replace(/\s+/g, ' ').trim();
    return new Error(`exec: executable ${plugin.command} not found${hint ? `; ${hint}` : ''}`, {
      cause: error,
    });
  }
  // A system error (a certificate file it could not read...) is not the plugin's.
  if (code !== undefined) return error;
  // The plugin exited non-zero: the client's error is its stderr.
  const said = error.message.trim();
  return new Error(`exec: executable ${plugin.command} failed${said ? `: ${said}` : ''}`, { cause: error });
}
