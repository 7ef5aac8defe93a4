import { defineConfig } from 'vitest/config';

// Each test starts a simulated cluster (a real Kubernetes API on loopback); they take a few seconds.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
