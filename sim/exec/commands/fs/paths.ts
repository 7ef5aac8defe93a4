/** An absolute, normalised path: `.`/`..`/repeated slashes resolved against `/`, no trailing slash. */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Joins a directory path as written with a child name, the way nftw builds its paths. */
export function joinWalkPath(dir: string, name: string): string {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

/** `rest` when `path` is `prefix` or below it, else undefined. */
export function relativeTo(path: string, prefix: string): string | undefined {
  if (prefix === '/') return path;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}
