import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { forgetToolsInfo } from '../../src/web/lib/tools-info';

// findBy/waitFor give up after 5 s, not 1 s: a lazy page chunk on a loaded two-core machine (CI runs
// every project at once) can take longer than a second to arrive, and a wait ends as soon as it is met.
// findBy*/waitFor give up after 15 s: a hang, not a slow machine's first render (issue 55).
configure({ asyncUtilTimeout: 15_000 });

// The files share one worker and one DOM (vitest.config.ts): what a test leaves behind is reset here.
afterEach(() => {
  cleanup();
  // A tool's draft kept for /tokens (lib/tool-draft.ts) must not reach the next test.
  sessionStorage.clear();
  localStorage.clear();
  // Every page that states a price reads /api/tools once per page load: each test's server answers afresh.
  forgetToolsInfo();
  // A test that failed before it restored real timers must not leave fake ones to the next file.
  vi.useRealTimers();
});
