// The dependencies we ship carry no known high or critical vulnerability (npm audit over the
// production tree). The audit needs the registry's advisory endpoint: where it cannot be reached
// (this workplace answers 405) the test says so and is counted as skipped, never as passed.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

type AuditReport = {
  statusCode?: number;
  message?: string;
  error?: unknown;
  metadata?: { vulnerabilities?: Record<string, number> };
  vulnerabilities?: Record<string, { severity: string; via: unknown[] }>;
};

it('npm audit finds no high or critical vulnerability in the production dependencies', (context) => {
  const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
  let report: AuditReport;
  try {
    report = JSON.parse(run.stdout) as AuditReport;
  } catch {
    context.skip(`npm audit gave no report (the advisory endpoint is unreachable): ${run.stderr.slice(0, 200)}`);
    return;
  }
  if (!report.metadata) {
    context.skip(`npm audit could not reach the advisory endpoint: ${report.message ?? 'no metadata'}`);
    return;
  }
  const serious = Object.entries(report.vulnerabilities ?? {})
    .filter(([, v]) => v.severity === 'high' || v.severity === 'critical')
    .map(([name, v]) => `${name} (${v.severity})`);
  expect(serious).toEqual([]);
}, 120_000);
