#!/usr/bin/env bash
# Regenerates test/fixtures/eks-token/*.json: tokens made by the real `aws eks get-token` (awscli 1.x)
# for AWS's documented example credentials under a frozen clock, which eks-token.test.ts pins ours to.
# Needs awscli and libfaketime (Debian: apt-get install -y faketime). Presigning is local: no network.
set -euo pipefail

cd "$(dirname "$0")/.."
out=test/fixtures/eks-token
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT

# Frozen (no leading @), read as UTC: awscli's startup must not tick the signing second.
readonly CLOCK='2024-05-01 12:00:00'
readonly CLUSTER=prod-eu
readonly REGION=eu-west-1
readonly SESSION_TOKEN='IQoJb3JpZ2luX2VjEXAMPLE//////////wEaCXVzLWVhc3QtMSJHMEUCIQ+abc/def=='

# A clean environment: no profile, config file or ambient credentials may leak into the token.
get_token() {
  env -i PATH="$PATH" HOME="$home" TZ=UTC \
    ${PYENV_ROOT:+PYENV_ROOT="$PYENV_ROOT"} ${PYENV_VERSION:+PYENV_VERSION="$PYENV_VERSION"} \
    AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null \
    AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE \
    AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY \
    "$@"
}

get_token faketime -f "$CLOCK" aws eks get-token --cluster-name "$CLUSTER" --region "$REGION" \
  >"$out/aws-eks-get-token.json"
get_token AWS_SESSION_TOKEN="$SESSION_TOKEN" \
  faketime -f "$CLOCK" aws eks get-token --cluster-name "$CLUSTER" --region "$REGION" \
  >"$out/aws-eks-get-token-session.json"
get_token faketime -f "$CLOCK" aws eks get-token --cluster-name "$CLUSTER" --region cn-north-1 \
  >"$out/aws-eks-get-token-cn.json"

aws --version >"$out/aws-version.txt" 2>&1
echo "wrote $out (clock $CLOCK UTC, $(cat "$out/aws-version.txt"))"
