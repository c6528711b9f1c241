// The API paths that carry a tool call's image (as the server sees them, with /api): the ten tools'
// calls and a batch's images, each of which is a tool call of its own (decision 062). One list for
// every rule that singles them out: they take the tool calls' body limit, not the API's 1 MB
// (body-limit.ts), and an API key may make them (api-keys/key-gate.ts).
import { BATCH_PATHS } from '../../contract/batches';
import { RECIPE_PATHS } from '../../contract/recipes';
import { TOOLS } from '../../contract/tools';

/** POST /api/<tool>: the ten tools' calls. */
const TOOL_PATHS: ReadonlySet<string> = new Set(TOOLS.map((tool) => `/api${tool.apiPath}`));

/** POST /api/batches/:id/images: one image of a batch. */
const BATCH_IMAGE_PATH = new RegExp(`^/api${BATCH_PATHS.images('[^/]+')}$`);

/** POST /api/recipes/:id/run and /api/recipe-runs/:id/images: an image's first step of a recipe (decision 083). */
const RECIPE_IMAGE_PATHS = [
  new RegExp(`^/api${RECIPE_PATHS.run('[^/]+')}$`),
  new RegExp(`^/api${RECIPE_PATHS.runImages('[^/]+')}$`),
];

/** Whether a request to `path` is a tool call: one of the ten tools', a batch's image, or a recipe's. */
export const isToolCallPath = (path: string): boolean =>
  TOOL_PATHS.has(path) || BATCH_IMAGE_PATH.test(path) || RECIPE_IMAGE_PATHS.some((recipe) => recipe.test(path));

/** POST /api/creations/:id/refine: a cut-out's edited mask, an image as large as a tool call's (decision 082). */
const REFINE_PATH = /^\/api\/creations\/[^/]+\/refine$/;

/** Whether a request to `path` refines a result by hand (its body is an image; a key may make it). */
export const isRefinePath = (path: string): boolean => REFINE_PATH.test(path);
