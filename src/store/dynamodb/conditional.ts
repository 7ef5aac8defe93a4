/**
 * Runs a conditional write: true when it was applied, false when its condition did not hold (the
 * race was lost, the key is taken, the brake is full). Every other error is a real failure.
 */
export async function conditionally(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
