/** Where a cluster's AWS resources live (for the EC2 reads), and the role to read them with. */
export interface AwsSide {
  region: string;
  roleArn?: string;
}
