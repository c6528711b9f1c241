// The tool call service's dependencies as the web process builds them (jobs/request/tool-call-service.ts),
// over a test backend, for tests that call it directly; and a Text to Pic call carrying `webhook` made
// through them as production sets them, for the tests of which addresses a call refuses.
import { toolById } from '../../src/contract/tools';
import { createImageModeration } from '../../src/server/images/moderation/image-moderation';
import { callTool, type ToolCallServiceDeps } from '../../src/server/jobs/request/tool-call-service';
import { quietLogger } from '../../src/server/log';
import { readOrCreateProfileWithStorage } from '../../src/server/profiles/profiles';
import { NEUTRAL_CLASSIFIER, type TestBackend } from './test-backend';

export function toolCallDeps(backend: TestBackend, { production }: { production: boolean }): ToolCallServiceDeps {
  return {
    db: backend.database.db,
    storage: backend.storage,
    inference: backend.inference,
    moderation: createImageModeration({ policy: 'block', threshold: 0.7 }, NEUTRAL_CLASSIFIER),
    logger: quietLogger(),
    maxActiveJobsPerUser: 10,
    storageQuotaBytes: 1024 ** 3,
    webhooks: { production },
  };
}

export function productionWebhookCall(backend: TestBackend, userId: string) {
  const production = toolCallDeps(backend, { production: true });
  return async (webhook: string) => {
    const body = { prompt: 'a fox', webhook };
    return callTool(production, {
      user: { id: userId, emailVerified: true },
      caller: await readOrCreateProfileWithStorage(backend.database.db, userId),
      tool: toolById('text-to-pic'),
      body,
      rawBody: JSON.stringify(body),
    });
  };
}
