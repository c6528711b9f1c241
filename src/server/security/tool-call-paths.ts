// The API paths that carry a tool call's image (as the server sees them, with /api): the ten tools'
// calls and a batch's images, each of which is a tool call of its own (decision 062). One list for
// every rule that singles them out: they take the tool calls' body limit, not the API's 1 MB
// (body-limit.ts), and an API key may make them (api-keys/key-gate.ts).
import { BATCH_PATHS } from '../../contract/batches';
import { TOOLS } from '../../contract/tools';

/** POST /api/<tool>: the ten tools' calls. */
const TOOL_PATHS: ReadonlySet<string> = new Set(TOOLS.map((tool) => `/api${tool.apiPath}`));

/** POST /api/batches/:id/images: one image of a batch. */
const BATCH_IMAGE_PATH = new RegExp(`^/api${BATCH_PATHS.images('[^/]+')}$`);

/** Whether a request to `path` is a tool call: one of the ten tools', or a batch's image. */
export const isToolCallPath = (path: string): boolean => TOOL_PATHS.has(path) || BATCH_IMAGE_PATH.test(path);
