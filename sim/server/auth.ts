import { randomBytes } from 'node:crypto';
import type { ResourceType } from '../resources.ts';
import { ApiError, errors } from '../status.ts';

/**
 * Bearer-token authentication and an RBAC-like authoriser. Each token carries the rules it is
 * allowed, so tests can prove that a permission set is sufficient (and that less is not).
 */
export interface AccessRule {
  verbs: string[];
  /** API groups ('' is core); absent means any. */
  apiGroups?: string[];
  /** Resources, with subresources as `pods/eviction`; '*' matches any. */
  resources: string[];
  /** Namespaces the rule applies in; absent means every namespace and the cluster scope. */
  namespaces?: string[];
  /**
   * Only objects of these names, as RBAC's resourceNames: a request that names none (list, a
   * create without a name) is not allowed by such a rule.
   */
  resourceNames?: string[];
}

export interface TokenGrant {
  token: string;
  user: string;
  rules: AccessRule[];
}

export const ALLOW_ALL: AccessRule[] = [{ verbs: ['*'], resources: ['*'] }];

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export interface ResourceAttributes {
  verb: string;
  type: ResourceType;
  subresource?: string;
  namespace?: string;
  name?: string;
}

function ruleAllows(rule: AccessRule, attributes: ResourceAttributes): boolean {
  const resource = attributes.subresource
    ? `${attributes.type.plural}/${attributes.subresource}`
    : attributes.type.plural;
  const verbOk = rule.verbs.includes('*') || rule.verbs.includes(attributes.verb);
  const groupOk =
    !rule.apiGroups || rule.apiGroups.includes('*') || rule.apiGroups.includes(attributes.type.group);
  const resourceOk = rule.resources.includes('*') || rule.resources.includes(resource);
  const namespaceOk =
    !rule.namespaces || (!!attributes.namespace && rule.namespaces.includes(attributes.namespace));
  const nameOk = !rule.resourceNames || (!!attributes.name && rule.resourceNames.includes(attributes.name));
  return verbOk && groupOk && resourceOk && namespaceOk && nameOk;
}

export class Authenticator {
  private readonly grants = new Map<string, TokenGrant>();
  /** Who an EKS bearer token is, when EKS tokens are accepted (an access entry's mapping). */
  private eksIdentity: Omit<TokenGrant, 'token'> | undefined;

  add(grant: TokenGrant): TokenGrant {
    this.grants.set(grant.token, grant);
    return grant;
  }

  /** A new token for `user` allowed exactly `rules`. */
  issue(user: string, rules: AccessRule[]): TokenGrant {
    return this.add({ token: newToken(), user, rules });
  }

  /**
   * Accepts EKS bearer tokens (`k8s-aws-v1.` + a presigned STS URL) as `user` with `rules`, as an
   * EKS access entry maps a role to a Kubernetes group. The presigned URL is not sent to STS: the
   * simulator trusts its shape, which is what the deploy rehearsal needs.
   */
  acceptEksTokens(user: string, rules: AccessRule[]): void {
    this.eksIdentity = { user, rules };
  }

  revoke(token: string): void {
    this.grants.delete(token);
  }

  authenticate(authorization: string | undefined): TokenGrant {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    const token = match?.[1] ?? '';
    const grant = this.grants.get(token);
    if (grant) return grant;
    if (this.eksIdentity && token.startsWith('k8s-aws-v1.')) return { token, ...this.eksIdentity };
    throw errors.unauthorized();
  }

  /** Throws the 403 Status kube-apiserver's RBAC authoriser gives when no rule allows the request. */
  authorize(grant: TokenGrant, attributes: ResourceAttributes): void {
    if (grant.rules.some((rule) => ruleAllows(rule, attributes))) return;
    const resource = attributes.subresource
      ? `${attributes.type.plural}/${attributes.subresource}`
      : attributes.type.plural;
    const scope = attributes.namespace
      ? `in the namespace "${attributes.namespace}"`
      : 'at the cluster scope';
    throw errors.forbidden(
      attributes.type,
      attributes.name,
      `User "${grant.user}" cannot ${attributes.verb} resource "${resource}" in API group "${attributes.type.group}" ${scope}`,
    );
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
