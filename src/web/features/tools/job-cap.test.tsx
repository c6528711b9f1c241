// A tool call refused at the per-user job cap (429): the page says why in words, whatever the tool.
import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOOL_MESSAGES } from '../../../contract/tools';
import { chooseImage } from '../../test-support/tool-fixtures';
import {
  action,
  balanceText,
  open,
  setUpToolPageTests,
  signedIn,
  toolMessage,
  typePrompt,
} from '../../test-support/tool-page-harness';

setUpToolPageTests();

describe('at the per-user job cap', () => {
  const atCap = {
    status: 429,
    body: { success: false, error: TOOL_MESSAGES.tooManyJobs(10), retryAfterSeconds: 15 },
  };

  it('Text to Pic says in words why the call was refused, and does not send it again', async () => {
    const { api } = await open('/text-to-pic', signedIn({}, { 'POST /api/generate-image': atCap }), 'Text to Pic');
    typePrompt('one more fox');
    fireEvent.click(action());
    await waitFor(() =>
      expect(toolMessage()).toBe('You already have 10 jobs in progress. Please wait for one to finish.'),
    );
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(1);
    expect(balanceText()).toContain('20 tokens');
    expect(action().disabled).toBe(false);
  });

  it('a single-image tool shows the same words instead of its failure message', async () => {
    await open('/background-remover', signedIn({}, { 'POST /api/remove-background': atCap }), 'Background Remover');
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() =>
      expect(toolMessage()).toBe('You already have 10 jobs in progress. Please wait for one to finish.'),
    );
  });
});
