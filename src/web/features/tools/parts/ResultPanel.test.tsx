import { render, screen } from '@testing-library/react';
import { ImageIcon } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { progressText } from './progress';
import { ResultPanel } from './ResultPanel';

describe('a running job', () => {
  it('says where a waiting job stands in the line', () => {
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 1 })).toBe(
      'Queued: yours is next…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 2 })).toBe(
      'Queued: 1 job ahead of yours…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 1000 })).toBe(
      'Queued: 999 jobs ahead of yours…',
    );
    // The server counts 1,000 ahead at most.
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 1001 })).toBe(
      'Queued: at least 1,000 jobs ahead of yours…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 5 })).toBe(
      'Queued: 4 jobs ahead of yours…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued' })).toBe(
      'Queued: waiting for a free worker…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'running', queuePosition: null })).toBe(
      'Working on it: this can take a minute…',
    );
    // Held by a worker, waiting for its model on the local engine: queued as well.
    expect(progressText({ phase: 'running', startedAt: 0, status: 'running', queuePosition: 1 })).toBe(
      'Queued: yours is next…',
    );
  });

  it('shows the place in line in the result panel, announced as a status', () => {
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 3 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('Queued: 2 jobs ahead of yours…');
  });
});

describe('the elapsed time', () => {
  it('counts minutes and seconds since the job was asked for', () => {
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', status: 'running', startedAt: Date.now() - 83_000 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('1:23 elapsed');
    expect(screen.getByRole('status').textContent).not.toContain('usually');
  });

  it('says how long the tool usually takes when the server knows', () => {
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', status: 'running', startedAt: Date.now() - 5_000, typicalSeconds: 95 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('0:05 elapsed · usually about 1:35');
  });

  it('says how long the job should take in all when the server has counted the jobs ahead', () => {
    const now = Date.now();
    render(
      <ResultPanel
        title="Result"
        job={{
          phase: 'running',
          status: 'queued',
          queuePosition: 2,
          startedAt: now - 5_000,
          typicalSeconds: 33,
          doneBy: now + 95_000,
        }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Queued: 1 job ahead of yours… 0:05 elapsed · about 1:40 in all',
    );
  });
});
