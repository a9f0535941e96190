import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { staffQueryClient } from './lib/staff/query';

// Vitest runs without globals, so Testing Library cannot register its own clean-up. The staff
// console's query cache is one per app: each test starts without another test's answers.
afterEach(() => {
  cleanup();
  staffQueryClient.clear();
});
