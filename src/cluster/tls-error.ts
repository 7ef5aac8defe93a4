/** TLS failures that mean the certificate authority the client trusts is not the server's. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_SIGNATURE_FAILURE',
]);

/**
 * A connection error as a person can act on it: a server certificate the kubeconfig's CA did not
 * sign, or a name the certificate does not cover, says so and where to look; anything else as is.
 */
export function connectionProblem(error: NodeJS.ErrnoException, server: string): string {
  if (error.code && UNTRUSTED.has(error.code))
    return `the API server ${server} presented a certificate that the cluster's certificate-authority-data in the kubeconfig did not sign (${error.code}): check that the kubeconfig is for this cluster, or fetch its CA again (aws eks update-kubeconfig)`;
  if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `the API server's certificate is not valid for ${server}: ${error.message}`;
  return error.message;
}
