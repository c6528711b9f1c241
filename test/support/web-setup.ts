import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // A tool's draft kept for /tokens (lib/tool-draft.ts) must not reach the next test.
  sessionStorage.clear();
});
