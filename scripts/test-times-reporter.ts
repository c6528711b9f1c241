// A Vitest reporter that times each project (tier) of `npm test`: its wall time from its first test
// file's start to its last one's end, the sum of its files' own times, and its slowest files.
// scripts/test.mjs prints the table at the end of the run, so a slow tier shows where it began.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** Where the run's tier times go (scripts/test.mjs reads them). */
export const TEST_TIMES_FILE = path.resolve(process.env.TEST_TIMES_FILE ?? '.tmp/test-times.json');

type ProjectTimes = { start: number; end: number; busyMs: number; files: { file: string; ms: number }[] };

export default class TestTimesReporter implements Reporter {
  private readonly projects = new Map<string, ProjectTimes>();
  private readonly started = new Map<string, number>();

  onTestModuleStart(testModule: TestModule) {
    this.started.set(this.key(testModule), Date.now());
  }

  onTestModuleEnd(testModule: TestModule) {
    const now = Date.now();
    const start = this.started.get(this.key(testModule)) ?? now;
    const name = testModule.project.name || 'default';
    const times = this.projects.get(name) ?? { start, end: now, busyMs: 0, files: [] };
    times.start = Math.min(times.start, start);
    times.end = Math.max(times.end, now);
    times.busyMs += now - start;
    times.files.push({ file: testModule.relativeModuleId, ms: now - start });
    this.projects.set(name, times);
  }

  onTestRunEnd() {
    const tiers = [...this.projects].map(([project, times]) => ({
      project,
      wallMs: times.end - times.start,
      busyMs: times.busyMs,
      files: times.files.length,
      slowest: times.files.sort((a, b) => b.ms - a.ms).slice(0, 5),
    }));
    mkdirSync(path.dirname(TEST_TIMES_FILE), { recursive: true });
    writeFileSync(TEST_TIMES_FILE, JSON.stringify(tiers, null, 2));
  }

  private key(testModule: TestModule) {
    return `${testModule.project.name}\u0000${testModule.moduleId}`;
  }
}
